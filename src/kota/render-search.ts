/**
 * A search answer as text for a model, at decreasing detail: the output asked for, then fewer
 * context lines, matching lines only (compact), fewer lines per file, file paths only, fewer files.
 */
import { plural, type Rendering } from "./budget.ts";
import type { CodeMatch, SearchResult, SymbolMatch } from "./contract.ts";

type Shape = { output: "paths" | "compact" | "snippet"; context: number; perFile: number; files: number; symbols: number };

function shapes(r: SearchResult): Shape[] {
  const files = Math.max(r.paths.length, new Set(r.code.map((c) => c.path)).size);
  const all: Shape = { output: r.output, context: 10, perFile: 100, files, symbols: r.symbols.length };
  const list: Shape[] = [all];
  if (r.output === "snippet") list.push({ ...all, context: 1 });
  if (r.output !== "paths") list.push({ ...all, output: "compact" }, { ...all, output: "compact", perFile: 2 });
  list.push({ ...all, output: "paths", symbols: Math.min(all.symbols, 10) });
  list.push({ ...all, output: "paths", files: Math.min(files, 10), symbols: Math.min(all.symbols, 5) });
  list.push({ ...all, output: "paths", files: Math.min(files, 5), symbols: Math.min(all.symbols, 3) });
  return list;
}

function symbolLine(s: SymbolMatch): string {
  const where = `${s.file}:${s.lines[0]}${s.lines[1] !== s.lines[0] ? `-${s.lines[1]}` : ""}`;
  const name = s.parent ? `${s.parent}.${s.name}` : s.name;
  const sig = s.signature ? ` ${s.signature.replace(/\s+/g, " ").slice(0, 120)}` : "";
  return `  ${s.kind} ${name}${s.exported ? " (exported)" : ""} ${where}${sig}`;
}

function codeBlock(matches: CodeMatch[], shape: Shape): string[] {
  const out: string[] = [];
  const byFile = new Map<string, CodeMatch[]>();
  for (const m of matches) byFile.set(m.path, [...(byFile.get(m.path) ?? []), m]);
  for (const [path, ms] of [...byFile].slice(0, shape.files)) {
    out.push(`  ${path}`);
    for (const m of ms.slice(0, shape.perFile)) {
      if (shape.output === "snippet") {
        const before = (m.before ?? []).slice(-shape.context);
        const after = (m.after ?? []).slice(0, shape.context);
        before.forEach((l, i) => {
          out.push(`    ${m.line - before.length + i}  ${l.trimEnd().slice(0, 200)}`);
        });
        out.push(`  > ${m.line}: ${m.context}`);
        after.forEach((l, i) => {
          out.push(`    ${m.line + 1 + i}  ${l.trimEnd().slice(0, 200)}`);
        });
      } else out.push(`    ${m.line}: ${m.context}`);
    }
  }
  return out;
}

export function renderSearch(r: SearchResult, level: number): Rendering {
  const list = shapes(r);
  const shape = list[Math.min(level, list.length - 1)]!;
  const lines: string[] = [`search "${r.query}"`];
  const cut: string[] = [];
  const fileCount = Math.max(r.paths.length, new Set(r.code.map((c) => c.path)).size);
  if (r.paths.length > 0 || r.code.length > 0 || r.total.files > 0) {
    lines.push(`code: ${plural(r.total.files, "file")} match${r.total.files > fileCount ? ` (${fileCount} shown)` : ""}`);
    if (shape.output === "paths") {
      const paths =
        r.paths.length > 0
          ? r.paths
          : [...new Set(r.code.map((c) => c.path))].map((p) => ({ path: p, matches: r.code.filter((c) => c.path === p).length }));
      for (const p of paths.slice(0, shape.files)) lines.push(`  ${p.path} (${plural(p.matches, "line")})`);
      if (r.output !== "paths") cut.push("matching lines (file paths only)");
    } else lines.push(...codeBlock(r.code, shape));
    if (shape.output === "compact" && r.output === "snippet") cut.push("context lines around matches");
    else if (shape.output === "snippet" && shape.context < 10 && r.code.some((c) => (c.before?.length ?? 0) > shape.context)) {
      cut.push(`context to ${shape.context} line each side`);
    }
    if (shape.perFile < 100 && shape.output === "compact") cut.push(`lines per file to ${shape.perFile}`);
    if (shape.files < fileCount) cut.push(`files to ${shape.files} of ${fileCount}`);
  }
  if (r.symbols.length > 0) {
    lines.push(`symbols: ${r.total.symbols} match${r.total.symbols > r.symbols.length ? ` (${r.symbols.length} shown)` : ""}`);
    lines.push(...r.symbols.slice(0, shape.symbols).map(symbolLine));
    if (shape.symbols < r.symbols.length) cut.push(`symbols to ${shape.symbols} of ${r.symbols.length}`);
  }
  if (r.code.length === 0 && r.paths.length === 0 && r.symbols.length === 0) lines.push("nothing matched");
  for (const tip of r.tips ?? []) lines.push(`tip: ${tip}`);
  return { text: lines.join("\n"), cut };
}

export const SEARCH_LEVELS = 8;
export const SEARCH_NARROW = "Narrow it: a more distinctive query, a lower limit, or output paths.";
