/**
 * Cold index against TypeScript's parse-only time, on any repository: TypeScript's createSourceFile
 * over the files the index covers (texts read first, only the parse timed), measured two ways: cold,
 * in a fresh node process each run as a user's tsc meets it (ts-parse-cold.mjs, the ratio the issue
 * names), and warm, in this process after a warm-up (the compiler's best case, a stricter bar); then
 * `pi-sidecar kota index` cold (a fresh database) through the compiled binary, as a user runs it.
 * Both as wall time and as CPU time (the index's CPU includes its parser processes), since the
 * CPU figure moves far less with the machine's load. Interleaved `--runs` times.
 * Run: bun bench/kota/cold-vs-ts.ts REPO [--runs 3] [--binary dist/pi-sidecar] [--json OUT.json]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { fileView, scanRepository } from "../../src/kota/builtin/files/scan.ts";
import { median } from "../stats-math.ts";

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : process.argv[i + 1]!;
};

export type ColdVsTs = {
  repo: string;
  files: number;
  /** In a fresh node process each run. */
  tsCold: { wallMs: number; cpuMs: number };
  /** In this process, the compiler warmed up first. */
  ts: { wallMs: number; cpuMs: number };
  index: { wallMs: number; cpuMs: number };
  runs: number;
};

function tsParse(texts: { path: string; text: string }[]): { wallMs: number; cpuMs: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  for (const f of texts) ts.createSourceFile(f.path, f.text, ts.ScriptTarget.Latest, true);
  const c = process.cpuUsage(c0);
  return { wallMs: performance.now() - t0, cpuMs: (c.user + c.system) / 1000 };
}

function tsParseCold(root: string, list: string): { wallMs: number; cpuMs: number } {
  const node = Bun.which("node");
  if (!node) throw new Error("cold TypeScript parse needs node on PATH (the runtime tsc runs on)");
  const r = Bun.spawnSync([node, join(import.meta.dir, "ts-parse-cold.mjs"), root, list], { stdout: "pipe", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`cold TypeScript parse failed: ${r.stderr.toString().slice(-500)}`);
  const { wallMs, cpuMs } = JSON.parse(r.stdout.toString());
  return { wallMs, cpuMs };
}

function kotaIndex(binary: string, repo: string): { wallMs: number; cpuMs: number } {
  const dir = mkdtempSync(join(tmpdir(), "kota-cold-"));
  try {
    const home = join(dir, "home");
    const r = Bun.spawnSync(
      ["/usr/bin/time", "-f", "%e %U %S", binary, "kota", "index", "--repo", repo, "--db", join(dir, "s.db"), "--json"],
      {
        stdout: "pipe",
        stderr: "pipe",
        env: { PATH: process.env.PATH ?? "", HOME: home, PI_CODING_AGENT_DIR: home, TMPDIR: dir },
      },
    );
    if (r.exitCode !== 0) throw new Error(`kota index failed: ${r.stderr.toString().slice(-500)}`);
    const [wall, user, sys] = r.stderr.toString().trim().split("\n").at(-1)!.split(" ").map(Number);
    return { wallMs: wall! * 1000, cpuMs: (user! + sys!) * 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function coldVsTs(repo: string, binary: string, runs = 3): ColdVsTs {
  const root = resolve(repo);
  const scan = scanRepository(root, fileView(root))!;
  const texts = scan.sources.map((s) => ({ path: s.path, text: readFileSync(join(root, s.path), "utf8") }));
  const listDir = mkdtempSync(join(tmpdir(), "kota-ts-list-"));
  const list = join(listDir, "files.json");
  writeFileSync(list, JSON.stringify(texts.map((t) => t.path)));
  tsParse(texts.slice(0, 50)); // warm the compiler's code
  const tsRuns: { wallMs: number; cpuMs: number }[] = [];
  const coldRuns: { wallMs: number; cpuMs: number }[] = [];
  const idxRuns: { wallMs: number; cpuMs: number }[] = [];
  try {
    for (let i = 0; i < runs; i++) {
      coldRuns.push(tsParseCold(root, list));
      tsRuns.push(tsParse(texts));
      idxRuns.push(kotaIndex(binary, root));
    }
  } finally {
    rmSync(listDir, { recursive: true, force: true });
  }
  const med = (xs: { wallMs: number; cpuMs: number }[]) => ({
    wallMs: Math.round(median(xs.map((x) => x.wallMs))),
    cpuMs: Math.round(median(xs.map((x) => x.cpuMs))),
  });
  return { repo: root, files: texts.length, tsCold: med(coldRuns), ts: med(tsRuns), index: med(idxRuns), runs };
}

if (import.meta.main) {
  const r = coldVsTs(
    process.argv[2] ?? ".",
    resolve(arg("binary", join(import.meta.dir, "../../dist/pi-sidecar"))),
    Number(arg("runs", "3")),
  );
  const out = process.argv.indexOf("--json");
  if (out >= 0) writeFileSync(process.argv[out + 1]!, `${JSON.stringify(r)}\n`);
  const ratio = (a: number, b: number) => (a / b).toFixed(2);
  console.log(
    `${r.repo}: ${r.files} files (median of ${r.runs}); kota index ${r.index.wallMs} ms wall / ${r.index.cpuMs} ms CPU; ` +
      `TypeScript parse cold (fresh node) ${r.tsCold.wallMs} / ${r.tsCold.cpuMs} ms: ratio ${ratio(r.index.wallMs, r.tsCold.wallMs)}x wall, ${ratio(r.index.cpuMs, r.tsCold.cpuMs)}x CPU; ` +
      `warm (in process) ${r.ts.wallMs} / ${r.ts.cpuMs} ms: ratio ${ratio(r.index.wallMs, r.ts.wallMs)}x wall, ${ratio(r.index.cpuMs, r.ts.cpuMs)}x CPU`,
  );
}
