/**
 * Where a cold index's CPU goes, per process and per thread: `pi-sidecar kota index` into a fresh
 * database under `perf record -e cpu-clock` (4 kHz, child processes followed), then the samples
 * counted by process (the indexing process, its parsers) and thread name: the JavaScript thread
 * (named after the binary), JavaScriptCore's compiler threads (JITWorker), the collector's helpers.
 * On two cores the JIT threads compete with both processes' JavaScript, so their share is part of
 * the cold index's wall time. Needs `perf` (Debian: linux-perf). Median of `--runs` per row.
 * `--parser-env K=V,K=V` starts the parsers with these environment variables (JSC options, say).
 * Run: bun bench/kota/thread-split.ts REPO [--binary dist/pi-sidecar] [--runs 3] [--parser-env K=V,...]
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { median } from "../stats-math.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};

const HZ = 4000;

/** CPU ms by "process thread" (process: index or parser; thread: the binary's name is shown as "js"). */
export function threadSplit(binary: string, repo: string, parserEnv: string[] = []): Map<string, number> {
  const dir = mkdtempSync(join(tmpdir(), "kota-threads-"));
  try {
    const home = join(dir, "home");
    const data = join(dir, "perf.data");
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: home,
      PI_CODING_AGENT_DIR: home,
      TMPDIR: dir,
      ...(parserEnv.length ? { PI_SIDECAR_HELPER_WRAPPER: ["env", ...parserEnv].join(" ") } : {}),
    };
    const cmd = [binary, "kota", "index", "--repo", repo, "--db", join(dir, "s.db"), "--json"];
    const r = Bun.spawnSync(["perf", "record", "-q", "-e", "cpu-clock", "-F", String(HZ), "-o", data, ...cmd], {
      env,
      stdout: "pipe",
      stderr: "pipe",
    });
    if (r.exitCode !== 0) throw new Error(`perf record / kota index failed: ${r.stderr.toString().slice(-500)}`);
    const s = Bun.spawnSync(["perf", "script", "-i", data, "-F", "pid,tid,comm"], { stdout: "pipe", stderr: "pipe" });
    const out = new Map<string, number>();
    let indexPid: string | null = null;
    const name = basename(binary).slice(0, 15);
    for (const line of s.stdout.toString().split("\n")) {
      const m = /^\s*(.*?)\s+(\d+)\/\d+\s*$/.exec(line);
      if (!m) continue;
      indexPid ??= m[2]!;
      const role = m[2] === indexPid ? "index" : "parser";
      const comm = m[1] === name ? "js" : m[1]!.replace(/\s*\d+$/, "");
      if (comm === "env") continue;
      for (const key of [`${role} ${comm}`, `${role} total`]) out.set(key, (out.get(key) ?? 0) + 1000 / HZ);
    }
    return out;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const repo = resolve(process.argv[2] ?? ".");
  const binary = resolve(arg("binary", join(import.meta.dir, "../../dist/pi-sidecar")));
  const runs = Number(arg("runs", "3"));
  const env = arg("parser-env", "").split(",").filter(Boolean);
  const all: Map<string, number>[] = [];
  for (let i = 0; i < runs; i++) all.push(threadSplit(binary, repo, env));
  const keys = [...new Set(all.flatMap((m) => [...m.keys()]))].sort();
  console.log(`${repo}: CPU ms per process and thread, median of ${runs}${env.length ? ` (parsers: ${env.join(" ")})` : ""}`);
  for (const k of keys) {
    const ms = Math.round(median(all.map((m) => m.get(k) ?? 0)));
    if (ms >= 5) console.log(`  ${k.padEnd(24)} ${String(ms).padStart(6)} ms`);
  }
}
