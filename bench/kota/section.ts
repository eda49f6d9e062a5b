/** The code-intelligence section of BENCHMARKS.md, from one `benchKota` result. */

import { CORPORA, type KotaBenchResult } from "./bench.ts";
import type { KotaDbSpeed, Limited } from "./kotadb-speed.ts";
import { loadMonorepoRecord, monorepoLines } from "./monorepos.ts";
import type { BuiltinSpeed } from "./speed.ts";

const f = (x: number) => (x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : Math.round(x).toLocaleString("en"));
const t = (x: Limited | undefined) =>
  !x
    ? ""
    : "skipped" in x
      ? "not measured"
      : "timedOutAfterMs" in x
        ? `> ${f(x.timedOutAfterMs / 1000)} s (stopped)`
        : `${f(x.p50)} / ${f(x.p95)}`;
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const pr = (x: { precision: number; recall: number } | undefined) => (x ? `${x.precision.toFixed(3)} / ${x.recall.toFixed(3)}` : "n/a");

function speedTable(r: KotaBenchResult, lines: string[]): void {
  const kd = Array.isArray(r.kotadb) ? r.kotadb : [];
  lines.push(`| | ${CORPORA.flatMap((c) => [`builtin ${c}`, `KotaDB ${c}`]).join(" | ")} |`);
  lines.push(`|:---|${CORPORA.map(() => "---:|---:").join("|")}|`);
  const row = (label: string, b: (s: BuiltinSpeed) => string, k: (s: KotaDbSpeed) => string) =>
    lines.push(
      `| ${label} | ${CORPORA.flatMap((c) => {
        const bs = r.builtin.find((s) => s.corpus === c);
        const ks = kd.find((s) => s.corpus === c);
        return [bs ? b(bs) : "", ks ? k(ks) : "n/a"];
      }).join(" | ")} |`,
    );
  row(
    "files / symbols",
    (s) => `${s.files} / ${s.symbols}`,
    (s) => `${s.files} / ${s.symbols}`,
  );
  row(
    "start (spawn + handshake)",
    () => "in process",
    (s) => f(s.startMs),
  );
  row(
    "cold index",
    (s) => f(s.coldIndexMs),
    (s) => f(s.coldIndexMs),
  );
  row(
    "first query after the index",
    (s) => f(s.firstQueryMs),
    (s) => f(s.firstQueryMs),
  );
  row(
    "one changed file: index again",
    (s) => t(s.reindexOneFileMs),
    (s) => t(s.reindexOneFileMs),
  );
  row(
    "one changed file: seen by the next query",
    (s) => t(s.queryAfterOneFileChangedMs),
    (s) => `${t(s.changeVisibleMs)} (its watcher)`,
  );
  row(
    "deps depth 1 on the hub file",
    (s) => t(s.deps.depth1),
    (s) => t(s.deps.depth1),
  );
  row(
    "deps depth 2",
    (s) => t(s.deps.depth2),
    (s) => t(s.deps.depth2),
  );
  row(
    "deps depth 3",
    (s) => t(s.deps.depth3),
    (s) => t(s.deps.depth3),
  );
  row(
    "usages",
    (s) => t(s.usages),
    (s) => t(s.usages),
  );
  row(
    "search",
    (s) => t(s.search),
    (s) => t(s.search),
  );
  row(
    "peak RSS",
    (s) => `${s.peakRssMb} MB`,
    (s) => `${s.peakRssMb} MB`,
  );
  row(
    "database",
    (s) => mb(s.dbBytes),
    (s) => mb(s.dbBytes),
  );
  row(
    "without the folder watcher: deps depth 3 / usages",
    (s) => `${t(s.withoutWatcher.depsDepth3)}; ${t(s.withoutWatcher.usages)}`,
    () => "",
  );
}

export function kotaSection(r: KotaBenchResult): string {
  const m = r.machine;
  const lines: string[] = ["## Code intelligence (kota): built-in index and KotaDB", ""];
  lines.push(
    `${r.date}${r.quick ? " (quick: built-in only, fewer runs)" : ""}; ${m.cpu}, ${m.cores} cores, ${m.ramGiB.toFixed(1)} GiB, ` +
      `Bun ${m.bun}, SQLite ${m.sqlite}; load ${m.loadAtStart} at the start, ${r.loadAtEnd} at the end; ${r.seconds} s in all. ` +
      "Corpora: hono and vite's packages (`../shared/corpora`); KotaDB: the vendored snapshot (`../shared/vendor`).",
    "",
  );
  lines.push("| What (issue 12 targets, built-in index) | Target | Measured | Result |", "|:---|---:|---:|:---|");
  for (const x of r.targets) lines.push(`| ${x.what} | ${x.target} | ${x.measured} | ${x.pass ? "PASS" : "**MISS**"} |`);
  lines.push("", "Times in ms, median (p50) / p95. Every query checks the disk for changes first (freshnessMs 0).", "");
  speedTable(r, lines);
  if (!Array.isArray(r.kotadb)) lines.push("", `KotaDB not measured: ${r.kotadb.skip}`);
  const o = r.oracle;
  const k = o.kotadb && "deps" in o.kotadb ? o.kotadb : null;
  lines.push(
    "",
    `Correctness against TypeScript (its module resolution and its language service's find-references) on hono, seed ${o.seed}, ` +
      `precision / recall; questions asked: builtin ${o.builtin.files} files and ${o.builtin.symbols} symbols` +
      `${k ? `, KotaDB ${k.files} files and ${k.symbols} symbols` : ""}:`,
    "",
  );
  lines.push("| | builtin | KotaDB |", "|:---|---:|---:|");
  for (const key of ["dependenciesDirect", "dependenciesDepth2", "dependentsDirect", "dependentsDepth2"] as const) {
    lines.push(`| deps: ${key} | ${pr(o.builtin.deps[key])} | ${pr(k?.deps[key])} |`);
  }
  lines.push(`| usages | ${pr(o.builtin.usages)} | ${pr(k?.usages)} |`);
  if (o.kotadb && "skip" in o.kotadb) lines.push("", `KotaDB's correctness not measured: ${o.kotadb.skip}`);
  if (k && k.unanswered.length > 0)
    lines.push("", `KotaDB did not answer in time: ${k.unanswered.length} question(s) (${k.unanswered.slice(0, 3).join("; ")}).`);
  const tk = r.tokens;
  lines.push(
    "",
    `Tokens for ten questions on hono (o200k; the call plus what comes back): kota tools ${tk.total.kota.toLocaleString("en")}, ` +
      `reading and grep ${tk.total.reading.toLocaleString("en")} (${Math.round(tk.total.ratio * 100)}%). ` +
      `The six tool definitions add ${tk.definitionTokensPerTurn} tokens to every model call (pi registers them only in a TS/JS project).`,
    "",
  );
  lines.push("| Question | kota | reading | answered (kota / reading) |", "|:---|---:|---:|:---|");
  for (const q of tk.rows)
    lines.push(
      `| ${q.question} | ${q.kotaTokens} | ${q.readingTokens} | ${q.kotaAnswers ? "yes" : "no"} / ${q.readingAnswers ? "yes" : "no"} |`,
    );
  lines.push(...monorepoLines(loadMonorepoRecord()));
  if (r.bounds.length > 0) lines.push("", "Bounded to fit the time budget (`bun bench/kota/bench.ts --unbounded` runs everything):", "");
  for (const b of r.bounds) lines.push(`- ${b}`);
  return `${lines.join("\n")}\n`;
}
