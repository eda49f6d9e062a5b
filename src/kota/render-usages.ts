/**
 * Usages, index runs and status as text. Usages at decreasing detail: every use with its line of
 * code, then uses without the code, then lines per file, then the files with the most uses.
 */
import { plural, type Rendering } from "./budget.ts";
import type { IndexResult, StatusResult, Usage, UsagesResult } from "./contract.ts";

/** Uses listed one by one per file; past this, a file's uses are counted by the shape of their line. */
const PER_FILE = 20;

/** The shape of a line of code: literals and numbers blanked, spaces collapsed. */
const shape = (line: string) =>
  line
    .replace(/(["'`])(?:\\.|(?!\1).)*\1/g, "$1…$1")
    .replace(/\b\d+\b/g, "0")
    .replace(/\s+/g, " ")
    .trim();

/** A file's many uses as "N uses like <line> (lines ...)", the commonest first. */
function alike(us: Usage[]): string[] {
  const groups = new Map<string, Usage[]>();
  for (const u of us) {
    const k = `${u.kind}\0${shape(u.context)}`;
    const g = groups.get(k);
    if (g) g.push(u);
    else groups.set(k, [u]);
  }
  const sorted = [...groups.values()].sort((a, b) => b.length - a.length || a[0]!.line - b[0]!.line);
  return sorted.map((g) => {
    const where = g.map((u) => u.line);
    const list = where.length > 12 ? `${where.slice(0, 12).join(", ")}, ...` : where.join(", ");
    return g.length === 1
      ? `    ${g[0]!.line}:${g[0]!.column} ${g[0]!.kind}  ${g[0]!.context}`
      : `    ${g.length}x ${g[0]!.kind}  ${g[0]!.context}  (lines ${list})`;
  });
}

function byFile(usages: Usage[]): [string, Usage[]][] {
  const m = new Map<string, Usage[]>();
  for (const u of usages) {
    const list = m.get(u.file);
    if (list) list.push(u);
    else m.set(u.file, [u]);
  }
  return [...m];
}

export function renderUsages(r: UsagesResult, level: number): Rendering {
  const cut: string[] = [];
  const total = r.total ?? r.usages.length;
  const files = byFile(r.usages);
  const defs = r.definedIn.map((d) => `${d.file}:${d.line}`).join(", ") || "unknown";
  const partial =
    r.total !== undefined && r.total > r.usages.length ? `; the first ${r.usages.length}, in ${plural(files.length, "file")}, follow` : "";
  const lines = [`usages of ${r.symbol} (defined at ${defs}): ${plural(total, "use")}${partial || ` in ${plural(files.length, "file")}`}`];
  if (r.incomplete) lines.push(`may be incomplete: ${r.incomplete}`);
  if (r.note) lines.push(`note: ${r.note}`);
  if (r.total !== undefined && r.total > r.usages.length) cut.push(`uses to the first ${r.usages.length} of ${r.total} (limit)`);
  if (level === 0) {
    for (const [file, us] of files) {
      lines.push(`  ${file}${us.length > PER_FILE ? ` (${us.length} uses)` : ""}`);
      if (us.length <= PER_FILE) for (const u of us) lines.push(`    ${u.line}:${u.column} ${u.kind}  ${u.context}`);
      else lines.push(...alike(us));
    }
  } else if (level === 1) {
    for (const [file, us] of files) lines.push(`  ${file}: ${us.map((u) => `${u.line}:${u.column} ${u.kind}`).join(", ")}`);
    cut.push("the line of code at each use");
  } else if (level === 2) {
    for (const [file, us] of files) lines.push(`  ${file}: lines ${[...new Set(us.map((u) => u.line))].join(", ")}`);
    cut.push("columns, kinds and code");
  } else {
    const cap = level === 3 ? 40 : 15;
    const top = [...files].sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
    for (const [file, us] of top.slice(0, cap)) lines.push(`  ${file} (${us.length})`);
    if (top.length > cap) lines.push(`  ... ${top.length - cap} more files`);
    cut.push(`each use (files with counts${top.length > cap ? `, the ${cap} with most uses` : ""})`);
  }
  if (total === 0) lines.push("  no uses found");
  return { text: lines.join("\n"), cut };
}

export const USAGES_LEVELS = 5;
export const USAGES_NARROW = "Narrow it: pass file to pick one definition, include_tests false, or ask kota_deps for the files only.";

export function renderIndex(r: IndexResult): string {
  const changed = r.changed !== undefined ? `, ${r.changed} parsed now${r.removed ? `, ${r.removed} removed` : ""}` : "";
  const lines = [
    `indexed ${r.repository}: ${plural(r.files, "file")}, ${plural(r.symbols, "symbol")}, ${plural(r.references, "reference")} in ${r.ms} ms${changed}`,
  ];
  if (r.errors && r.errors.length > 0) {
    lines.push(`${plural(r.errors.length, "file")} with errors (indexed as far as they parse; the rest of the repository is complete):`);
    for (const e of r.errors.slice(0, 10)) lines.push(`  ${e.file}${e.line ? `:${e.line}` : ""} ${e.message.slice(0, 160)}`);
    if (r.errors.length > 10) lines.push(`  ... ${r.errors.length - 10} more`);
  }
  return lines.join("\n");
}

export function renderStatus(s: StatusResult): string {
  const lines = [
    `kota ${s.backend}: ${s.repository}`,
    s.indexed
      ? `indexed ${s.indexedAt ?? "(time unknown)"}: ${plural(s.files, "file")}, ${plural(s.symbols, "symbol")}, ${plural(s.references, "reference")}` +
        `${s.stale ? `; ${plural(s.stale, "file")} changed since (re-indexed by the next query)` : ""}${s.errors ? `; ${s.errors} with syntax errors` : ""}`
      : "not indexed yet (kota index)",
  ];
  if (s.server) {
    const srv = s.server;
    lines.push(
      `KotaDB ${srv.state}${srv.pid ? ` (pid ${srv.pid})` : ""}${srv.restarts ? `, ${plural(srv.restarts, "restart")}` : ""}: ${srv.command}`,
    );
    if (srv.lastError) lines.push(`last error: ${srv.lastError}`);
  }
  return lines.join("\n");
}
