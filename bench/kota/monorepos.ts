/**
 * The code index on unseen monorepos: the held-out evaluations (kept outside the project, written by
 * helpers who never read src/; TypeScript's resolver and find-references as the oracle, answers fixed
 * before the tool ran) record their scores here, and BENCHMARKS.md shows them. `npm run bench` does
 * not re-run them (the repositories are fetched snapshots, hundreds of MB): the record says which
 * build, when and with which command they were run.
 *
 *   bun bench/kota/monorepos.ts record --binary-commit SHA --command "..." [--cold A.json,B.json --load "..."] SET:first|tuned=RESULTS_DIR ...
 *
 * RESULTS_DIR holds an evaluation's `results/<repo>.json` files (their `summary`); `--cold` takes
 * `cold-vs-ts.ts --json` results (the cold index against TypeScript's parse-only time).
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export type PR = { P: number; R: number };
export type MonorepoRow = {
  set: string;
  /** "first": the set's first run, nothing fitted to it; "tuned": studied since. */
  status: "first" | "tuned";
  repo: string;
  commit: string;
  files: number;
  deps: PR;
  dependents: PR;
  usages: PR;
};
/** One `cold-vs-ts.ts --json` result: medians of wall / CPU ms. */
export type ColdRow = {
  repo: string;
  files: number;
  runs: number;
  index: { wallMs: number; cpuMs: number };
  tsCold: { wallMs: number; cpuMs: number };
  ts: { wallMs: number; cpuMs: number };
};
export type MonorepoRecord = {
  recorded: string;
  binaryCommit: string;
  command: string;
  oracle: string;
  rows: MonorepoRow[];
  cold?: { load: string; rows: ColdRow[] };
};

export const RECORD_FILE = join(import.meta.dir, "monorepos.json");

export function loadMonorepoRecord(file = RECORD_FILE): MonorepoRecord | null {
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as MonorepoRecord) : null;
}

const fmt = (x: PR) => `${x.P.toFixed(3)} / ${x.R.toFixed(3)}`;

/** The BENCHMARKS.md lines for the record (none when there is no record). */
export function monorepoLines(r: MonorepoRecord | null): string[] {
  if (!r) return [];
  return [
    "",
    "### Unseen monorepos (held-out evaluations outside the project)",
    "",
    `Recorded ${r.recorded} on the build ${r.binaryCommit} (\`${r.command}\`); oracle: ${r.oracle}. ` +
      "Precision / recall over 40 sampled files and 40 sampled exported symbols per repository; " +
      '"first run" rows were scored before anything was fitted to them, "tuned" rows have been studied since. Not re-run by `npm run bench`.',
    "",
    "| set | repository | commit | files | deps | dependents | usages (files) |",
    "|:---|:---|:---|---:|---:|---:|---:|",
    ...r.rows.map(
      (x) =>
        `| ${x.set} (${x.status === "first" ? "first run" : "tuned"}) | ${x.repo} | ${x.commit.slice(0, 7)} | ${x.files} | ` +
        `${fmt(x.deps)} | ${fmt(x.dependents)} | ${fmt(x.usages)} |`,
    ),
    ...coldLines(r.cold),
  ];
}

function coldLines(cold: MonorepoRecord["cold"]): string[] {
  if (!cold || cold.rows.length === 0) return [];
  const x = (a: number, b: number) => `${(a / b).toFixed(2)}x`;
  return [
    "",
    `Cold index against TypeScript's parse-only time (\`bun bench/kota/cold-vs-ts.ts REPO --runs N\`, medians, wall / CPU ms; load ${cold.load}): ` +
      "TypeScript cold is a fresh node process per run (as a user's tsc meets it; the ratio issue 23 names), warm is the same parse in the " +
      "benchmark's process after a warm-up (the compiler's best case, a stricter bar).",
    "",
    "| repository | files | kota cold index | TypeScript cold | ratio (wall / CPU) | TypeScript warm | ratio (wall / CPU) |",
    "|:---|---:|---:|---:|---:|---:|---:|",
    ...cold.rows.map(
      (c) =>
        `| ${c.repo.split("/").at(-1)} | ${c.files} | ${c.index.wallMs} / ${c.index.cpuMs} | ${c.tsCold.wallMs} / ${c.tsCold.cpuMs} | ` +
        `${x(c.index.wallMs, c.tsCold.wallMs)} / ${x(c.index.cpuMs, c.tsCold.cpuMs)} | ${c.ts.wallMs} / ${c.ts.cpuMs} | ` +
        `${x(c.index.wallMs, c.ts.wallMs)} / ${x(c.index.cpuMs, c.ts.cpuMs)} |`,
    ),
  ];
}

function rowsOf(set: string, status: MonorepoRow["status"], dir: string): MonorepoRow[] {
  const results = join(dir, "results");
  return readdirSync(results)
    .filter((f) => /^[^.]+\.json$/.test(f))
    .sort()
    .map((f) => {
      const s = JSON.parse(readFileSync(join(results, f), "utf8")).summary;
      const pr = (x: { P: number; R: number }) => ({ P: x.P, R: x.R });
      return {
        set,
        status,
        repo: s.repo,
        commit: s.snapshotCommit,
        files: s.indexedFiles,
        deps: pr(s.dependencies),
        dependents: pr(s.dependents),
        usages: pr(s.usagesFiles),
      };
    });
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const flag = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i < 0 ? undefined : argv[i + 1];
  };
  const binaryCommit = flag("binary-commit");
  const command = flag("command");
  const specs = argv.filter((a) => /^[\w-]+:(first|tuned)=/.test(a));
  if (argv[0] !== "record" || !binaryCommit || !command || specs.length === 0) {
    console.error('usage: bun bench/kota/monorepos.ts record --binary-commit SHA --command "..." SET:first|tuned=RESULTS_DIR ...');
    process.exit(2);
  }
  const rows = specs.flatMap((spec) => {
    const [head, dir] = spec.split("=", 2) as [string, string];
    const [set, status] = head.split(":") as [string, MonorepoRow["status"]];
    return rowsOf(set, status, dir);
  });
  const coldFiles = flag("cold")?.split(",") ?? [];
  const record: MonorepoRecord = {
    recorded: `${new Date().toISOString().slice(0, 16).replace("T", " ")} UTC`,
    binaryCommit,
    command,
    oracle: "TypeScript 5.9.3's module resolution and language-service find-references",
    rows,
    ...(coldFiles.length > 0
      ? { cold: { load: flag("load") ?? "not given", rows: coldFiles.map((f) => JSON.parse(readFileSync(f, "utf8")) as ColdRow) } }
      : {}),
  };
  writeFileSync(RECORD_FILE, `${JSON.stringify(record, null, 2)}\n`); // as Biome formats JSON
  console.error(`${rows.length} rows written to ${RECORD_FILE}`);
}
