/**
 * Paired A/B of recall and search CPU time: two checkouts' code in one process, each with its own
 * connection to a database kept by scale.ts (`--dir`; opened as it is, so copy it first if the
 * code under test writes), the same prompts, the order of the two sides alternating prompt by
 * prompt. On a shared machine separate runs differ by more than most changes; paired calls see the
 * same load. Also says whether both sides gave the same answers (recall text and search hits).
 * DATABASE_B: give B another file (the same data in another state, e.g. its word index merged).
 *
 *   bun bench/memory/recall-ab.ts /path/to/main . /tmp/scale/memory-scale.db [PROMPTS] [DATABASE_B]
 */
import { resolve } from "node:path";
import { type CheckoutService, checkoutService } from "./checkout-service.ts";

const [rootA, rootB, dbA, countArg, dbB] = process.argv.slice(2);
if (!rootA || !rootB || !dbA) {
  console.error("usage: bun bench/memory/recall-ab.ts CHECKOUT_A CHECKOUT_B DATABASE [PROMPTS] [DATABASE_B]");
  process.exit(2);
}
const prompts = Number(countArg ?? 300);
const project = "/bench/memory/scale";

type Side = CheckoutService & { recall: number[]; search: number[] };

async function side(root: string, path: string): Promise<Side> {
  return { ...(await checkoutService(root, path)), recall: [], search: [] };
}

const a = await side(resolve(rootA), resolve(dbA));
const b = await side(resolve(rootB), resolve(dbB ?? dbA));
const { noise } = await import(`${resolve(rootA)}/bench/memory/history.ts`);
const { createRng } = await import(`${resolve(rootA)}/bench/prng.ts`);
const rng = createRng(7);
const cpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};
const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return Math.round(s[Math.min(s.length - 1, Math.floor(q * s.length))]! * 100) / 100;
};
const mean = (xs: number[]) => Math.round((xs.reduce((s, x) => s + x, 0) / xs.length) * 100) / 100;
try {
  // Warm-up: compiling the code and reading the index's pages are not measured.
  for (let i = 0; i < 20; i++) {
    const prompt = noise(rng).text;
    for (const s of [a, b]) await s.handle({ type: "recall", project, session: "warm-up", prompt });
  }
  let same = 0;
  for (let i = 0; i < prompts; i++) {
    const prompt = noise(rng).text;
    const answers: string[] = [];
    for (const s of i % 2 === 0 ? [a, b] : [b, a]) {
      let t = cpu();
      const recalled = await s.handle({ type: "recall", project, session: "live", prompt });
      s.recall.push(cpu() - t);
      t = cpu();
      const found = await s.handle({ type: "search", project, query: prompt, limit: 5 });
      s.search.push(cpu() - t);
      answers.push(JSON.stringify([recalled, found]));
    }
    if (answers[0] === answers[1]) same++;
  }
  const figures = (s: Side) => ({
    recallCpuMs: { mean: mean(s.recall), p50: quantile(s.recall, 0.5), p95: quantile(s.recall, 0.95) },
    searchCpuMs: { mean: mean(s.search), p50: quantile(s.search, 0.5), p95: quantile(s.search, 0.95) },
  });
  console.log(
    JSON.stringify({ prompts, sameAnswers: same, a: { root: rootA, ...figures(a) }, b: { root: rootB, ...figures(b) } }, null, 2),
  );
} finally {
  a.close();
  b.close();
}
