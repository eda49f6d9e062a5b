/** Impact and task context as text: the summary first, then detail that shrinks to fit. */
import type { Rendering } from "./budget.ts";
import type { ImpactResult, TaskContextResult } from "./contract.ts";

const IMPACT_CAPS: [number, number][] = [
  [Infinity, Infinity],
  [40, 40],
  [15, 20],
  [5, 10],
  [0, 5],
];

export function renderImpact(r: ImpactResult, level: number): Rendering {
  const [affectedCap, testCap] = IMPACT_CAPS[Math.min(level, IMPACT_CAPS.length - 1)]!;
  const cut: string[] = [];
  const lines = [`impact: risk ${r.risk}`, r.summary];
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  // "N listed" is what this text lists, whether the query's limit or the budget cut it.
  const shown = r.affected.slice(0, affectedCap);
  lines.push(`affected files (${r.counts.affected}${r.counts.affected > shown.length ? `, ${shown.length} listed` : ""}):`);
  for (const a of shown) {
    const counts = a.direct + a.indirect > 0 ? ` [${a.direct} direct, ${a.indirect} indirect dependents]` : "";
    lines.push(`  ${a.file}: ${a.why}${level >= 2 ? "" : counts}`);
  }
  if (r.counts.affected > shown.length) lines.push(`  ... ${r.counts.affected - shown.length} more`);
  if (r.affected.length > affectedCap) cut.push(`affected files to ${affectedCap} of ${r.counts.affected}`);
  if (level >= 2) cut.push("dependent counts per file");
  const tests = r.tests.slice(0, testCap);
  lines.push(`tests to run (${r.counts.tests}${r.counts.tests > tests.length ? `, ${tests.length} listed` : ""}):`);
  for (const t of tests) lines.push(`  ${t}`);
  if (r.counts.tests > tests.length) lines.push(`  ... ${r.counts.tests - tests.length} more`);
  if (r.tests.length > testCap) cut.push(`tests to ${testCap} of ${r.counts.tests}`);
  if (r.tests.length === 0) lines.push("  none found (no test imports these files or sits beside them)");
  return { text: lines.join("\n"), cut };
}

export const IMPACT_LEVELS = IMPACT_CAPS.length;
export const IMPACT_NARROW = "Narrow it: fewer files per call, or kota_deps on one file.";

const TASK_CAPS: { deps: number; dependents: number; symbols: number; tests: number; exportedOnly: boolean }[] = [
  { deps: Infinity, dependents: Infinity, symbols: Infinity, tests: Infinity, exportedOnly: false },
  { deps: 20, dependents: 10, symbols: 25, tests: 10, exportedOnly: true },
  { deps: 10, dependents: 5, symbols: 10, tests: 5, exportedOnly: true },
  { deps: 5, dependents: 3, symbols: 0, tests: 3, exportedOnly: true },
];

export function renderTaskContext(r: TaskContextResult, level: number): Rendering {
  const caps = TASK_CAPS[Math.min(level, TASK_CAPS.length - 1)]!;
  const cut = new Set<string>();
  const lines: string[] = [];
  const list = (label: string, items: string[], cap: number, total = items.length) => {
    if (items.length === 0) return;
    const shown = items.slice(0, cap);
    lines.push(`  ${label} (${total}): ${shown.join(", ")}${total > shown.length ? ", ..." : ""}`);
    if (items.length > cap) cut.add(`${label} per file to ${cap}`);
  };
  for (const f of r.files) {
    lines.push(`${f.file}:`);
    list("imports", f.dependencies, caps.deps);
    list("imported by", f.dependents, caps.dependents, f.dependentCount);
    if (f.dependentCount === 0) lines.push("  imported by: nothing");
    list("tests", f.tests, caps.tests);
    const symbols = caps.exportedOnly ? f.symbols.filter((s) => s.exported) : f.symbols;
    if (caps.exportedOnly && symbols.length < f.symbols.length) cut.add("symbols that are not exported");
    list(
      "symbols",
      symbols.map((s) => `${s.kind} ${s.parent ? `${s.parent}.` : ""}${s.name}:${s.line}`),
      caps.symbols,
    );
  }
  for (const w of r.warnings) lines.push(`warning: ${w}`);
  return { text: lines.join("\n"), cut: [...cut] };
}

export const TASK_LEVELS = TASK_CAPS.length;
export const TASK_NARROW = "Narrow it: fewer files, or include_symbols false.";
