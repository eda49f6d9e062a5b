/**
 * Start time and size of compiled binaries, side by side (e.g. before and after a build change):
 *
 *   bun bench/binary-start.ts [--runs N] BINARY...
 *
 * Runs `--version`, a `search` on a small store, and a `settle` that counts a fresh capture's tokens
 * (the tokenizer tables load) with each binary in turn, N times, interleaved so
 * a busy machine slows them alike, and prints per binary its size, the median wall time and the
 * median CPU time (user + system, which a loaded machine disturbs less). The load average is printed
 * with it: on a shared machine only the ratios mean much.
 */
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";

type Sample = { wallMs: number; cpuMs: number };

function once(cmd: string[], env: Record<string, string>, stdin?: string): Sample {
  const started = performance.now();
  const r = Bun.spawnSync(cmd, { env, stdin: stdin === undefined ? "ignore" : Buffer.from(stdin), stdout: "ignore", stderr: "pipe" });
  const wallMs = performance.now() - started;
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")} failed: ${r.stderr.toString()}`);
  const cpu = r.resourceUsage.cpuTime;
  return { wallMs, cpuMs: Number(cpu.user + cpu.system) / 1000 };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const { values, positionals } = parseArgs({ options: { runs: { type: "string", default: "21" } }, allowPositionals: true });
const runs = Number(values.runs);
if (positionals.length === 0) {
  console.error("usage: bun bench/binary-start.ts [--runs N] BINARY...");
  process.exit(2);
}
const home = mkdtempSync(join(tmpdir(), "binary-start-"));
try {
  const env = { PATH: process.env.PATH ?? "", HOME: home, PI_SIDECAR_SETTLE: "inline" };
  const text = Array.from({ length: 3000 }, (_, i) => `line ${i} worker=${i % 7} status=${i % 13 === 0 ? "error" : "ok"}`).join("\n");
  Bun.spawnSync([positionals[0]!, "capture", "--tool", "bench"], { env, stdin: Buffer.from(text) });
  const commands = {
    "--version": ["--version"],
    search: ["search", "status=error worker=3"],
    "settle (token count)": ["settle"],
  } as const;
  const samples = new Map<string, Sample[]>();
  for (let i = 0; i < runs; i++) {
    for (const bin of positionals) {
      for (const [name, args] of Object.entries(commands)) {
        const key = `${bin}\t${name}`;
        // A fresh capture first (not timed), left queued (PI_SIDECAR_SETTLE=inline) for settle to count.
        if (name === "settle (token count)") once([bin, "capture", "--tool", "bench", "--force"], env, `${text}\n${bin} ${i}`);
        samples.set(key, [...(samples.get(key) ?? []), once([bin, ...args], env)]);
      }
    }
  }
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}, ${runs} runs each, interleaved`,
  );
  for (const bin of positionals) {
    const mb = (statSync(bin).size / 1e6).toFixed(1);
    const parts = Object.keys(commands).map((name) => {
      const s = samples.get(`${bin}\t${name}`)!;
      return `${name}: wall ${median(s.map((x) => x.wallMs)).toFixed(0)} ms, cpu ${median(s.map((x) => x.cpuMs)).toFixed(0)} ms`;
    });
    console.log(`${basename(bin)} (${mb} MB): ${parts.join("; ")}`);
  }
} finally {
  rmSync(home, { recursive: true, force: true });
}
