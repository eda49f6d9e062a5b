/**
 * Usages, index runs and status as text. Usages at decreasing detail: every use with its line of
 * code, then uses without the code, then lines per file, then the files with the most uses.
 */
import { plural, type Rendering } from "./budget.ts";
import type { IndexResult, StatusResult, Usage, UsagesResult } from "./contract.ts";

function byFile(usages: Usage[]): [string, Usage[]][] {
  const m = new Map<string, Usage[]>();
  for (const u of usages) m.set(u.file, [...(m.get(u.file) ?? []), u]);
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
  if (r.note) lines.push(`note: ${r.note}`);
  if (r.total !== undefined && r.total > r.usages.length) cut.push(`uses to the first ${r.usages.length} of ${r.total} (limit)`);
  if (level === 0) {
    for (const [file, us] of files) {
      lines.push(`  ${file}`);
      for (const u of us) lines.push(`    ${u.line}:${u.column} ${u.kind}  ${u.context}`);
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
