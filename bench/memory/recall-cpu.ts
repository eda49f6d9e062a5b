/**
 * Recall and search CPU time of one checkout's code on a database kept by scale.ts (`--dir`), for
 * an interleaved A/B of two checkouts on the same data (the wall clock of a shared machine says
 * little; this process's CPU time says more). Each run works on its own copy of the database; the
 * prompts are scale.ts's (the same seed for both sides).
 *
 *   bun bench/memory/scale.ts --events 100000 --dir /tmp/scale
 *   for i in 1 2 3 4; do
 *     bun bench/memory/recall-cpu.ts /path/to/main /tmp/scale/memory-scale.db
 *     bun bench/memory/recall-cpu.ts . /tmp/scale/memory-scale.db
 *   done
 */
import { copyFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { checkoutService } from "./checkout-service.ts";

const [rootArg, dbArg, countArg] = process.argv.slice(2);
if (!rootArg || !dbArg) {
  console.error("usage: bun bench/memory/recall-cpu.ts CHECKOUT DATABASE [PROMPTS]");
  process.exit(2);
}
const root = resolve(rootArg);
const prompts = Number(countArg ?? 300);
const { createRng } = await import(`${root}/bench/prng.ts`);
const { noise } = await import(`${root}/bench/memory/history.ts`);

const dir = mkdtempSync(join(tmpdir(), "recall-cpu-"));
const path = join(dir, "memory.db");
copyFileSync(dbArg, path);
const service = await checkoutService(root, path);
const project = "/bench/memory/scale";
const rng = createRng(7);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
try {
  // Warm-up: compiling the code and reading the index's pages are not measured.
  for (let i = 0; i < 20; i++) await service.handle({ type: "recall", project, session: "warm-up", prompt: noise(rng).text });
  const start = cpu();
  for (let i = 0; i < prompts; i++) {
    const prompt = noise(rng).text;
    await service.handle({ type: "recall", project, session: "live", prompt });
    await service.handle({ type: "search", project, query: prompt, limit: 5 });
  }
  console.log(JSON.stringify({ checkout: root, prompts, cpuMs: Math.round(cpu() - start) }));
} finally {
  service.close();
  rmSync(dir, { recursive: true, force: true });
}
