/**
 * Cold index, binary against binary, interleaved: `pi-sidecar kota index` into a fresh database,
 * each binary in turn `--runs` times, as a user runs it (scratch HOME). Per run: wall time and CPU
 * time of the whole (parser processes included), and the parser processes' CPU on their own
 * (each parser is started through PI_SIDECAR_HELPER_WRAPPER=/usr/bin/time), so the split between
 * the indexing process and its parsers shows which one a change moved. Medians per binary.
 * `--a-parser-env`/`--b-parser-env K=V,K=V` start one side's parser processes with these environment
 * variables (through `env` in the wrapper, so they win over the pool's own, e.g. the JIT's BUN_JSC_*),
 * leaving the indexing process as it is: one binary compared with itself under two parser settings.
 * Run: bun bench/kota/cold-ab.ts REPO --a OLD_BINARY --b NEW_BINARY [--runs 5] [--b-parser-env K=V,...]
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { median } from "../stats-math.ts";

const arg = (name: string, fallback?: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  if (i !== -1) return process.argv[i + 1]!;
  if (fallback === undefined) throw new Error(`--${name} is required: bun bench/kota/cold-ab.ts REPO --a BIN --b BIN [--runs 5]`);
  return fallback;
};

export type ColdRun = { wallMs: number; cpuMs: number; parserCpuMs: number };

/** "%e %U %S" (seconds) from /usr/bin/time's last line. */
const seconds = (line: string) => line.trim().split(" ").map(Number);

export function coldRun(binary: string, repo: string, parserEnv: string[] = []): ColdRun {
  const dir = mkdtempSync(join(tmpdir(), "kota-cold-ab-"));
  try {
    const home = join(dir, "home");
    const parsers = join(dir, "parsers.txt");
    const r = Bun.spawnSync(
      ["/usr/bin/time", "-f", "%e %U %S", binary, "kota", "index", "--repo", repo, "--db", join(dir, "s.db"), "--json"],
      {
        stdout: "pipe",
        stderr: "pipe",
        env: {
          PATH: process.env.PATH ?? "",
          HOME: home,
          PI_CODING_AGENT_DIR: home,
          TMPDIR: dir,
          PI_SIDECAR_HELPER_WRAPPER: [`/usr/bin/time -a -o ${parsers} -f %U_%S`, ...(parserEnv.length ? ["env", ...parserEnv] : [])].join(
            " ",
          ),
        },
      },
    );
    if (r.exitCode !== 0) throw new Error(`kota index failed: ${r.stderr.toString().slice(-500)}`);
    const [wall, user, sys] = seconds(r.stderr.toString().trim().split("\n").at(-1)!);
    let parserCpu = 0;
    for (const line of readFileSync(parsers, "utf8").split("\n")) {
      const m = /^([\d.]+)_([\d.]+)$/.exec(line.trim());
      if (m) parserCpu += Number(m[1]) + Number(m[2]);
    }
    return { wallMs: wall! * 1000, cpuMs: (user! + sys!) * 1000, parserCpuMs: parserCpu * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.main) {
  const repo = resolve(process.argv[2] ?? ".");
  const binaries = { a: resolve(arg("a")), b: resolve(arg("b")) };
  const runs = Number(arg("runs", "5"));
  const envs = { a: arg("a-parser-env", "").split(",").filter(Boolean), b: arg("b-parser-env", "").split(",").filter(Boolean) };
  const results: Record<"a" | "b", ColdRun[]> = { a: [], b: [] };
  for (let i = 0; i < runs; i++) for (const k of ["a", "b"] as const) results[k].push(coldRun(binaries[k], repo, envs[k]));
  for (const k of ["a", "b"] as const) {
    const xs = results[k];
    const m = (f: (x: ColdRun) => number) => Math.round(median(xs.map(f)));
    console.log(
      `${k} ${binaries[k]}${envs[k].length ? ` (parsers: ${envs[k].join(" ")})` : ""}: wall ${m((x) => x.wallMs)} ms, CPU ${m((x) => x.cpuMs)} ms ` +
        `(parsers ${m((x) => x.parserCpuMs)} ms, indexing process ${m((x) => x.cpuMs - x.parserCpuMs)} ms); median of ${runs}`,
    );
  }
}
