/** taskContext: for the files a task touches, what they import, who imports them, their tests and symbols. */
import { fail, type Result } from "../../../errors.ts";
import { KOTA_ERRORS, type SymbolKind, type TaskContextFile, type TaskContextOptions, type TaskContextResult } from "../../contract.ts";
import { degree, levels } from "../graph.ts";
import { lookupFile, type QueryEnv } from "./env.ts";
import { testsBeside } from "./impact.ts";

const MAX_SYMBOLS = 40;

export function queryTaskContext(env: QueryEnv, opts: TaskContextOptions): Result<TaskContextResult> {
  const g = env.graph;
  if (!opts.files || opts.files.length === 0)
    return fail(KOTA_ERRORS.BAD_INPUT, "Name at least one file (relative to the repository root).");
  const maxDependents = Math.max(0, Math.floor(opts.maxDependents ?? 10));
  const warnings: string[] = [];
  const files: TaskContextFile[] = [];
  const symbolsOf = env.db.prepare<
    { name: string; kind: string; line_start: number; exported: number; parent: string | null },
    [number, number]
  >(
    `SELECT name, kind, line_start, exported, parent FROM code_symbols WHERE file_id = ?
     ORDER BY exported DESC, parent IS NOT NULL, line_start LIMIT ?`,
  );
  for (const input of opts.files) {
    const f = lookupFile(env, input);
    if (!f.ok) {
      if (f.code === KOTA_ERRORS.FILE_OUTSIDE_REPO) return f;
      warnings.push(f.message);
      continue;
    }
    const skipTests = opts.includeTests === false;
    const deps = levels(g, [f.node], "out", 1).levels[0] ?? [];
    const dependents = (levels(g, [f.node], "in", 1).levels[0] ?? []).filter((n) => !(skipTests && g.isTest[n]));
    // "Top" dependents: the ones the rest of the code leans on most.
    const top = [...dependents].sort((a, b) => degree(g, b, "in") - degree(g, a, "in") || (g.paths[a]! < g.paths[b]! ? -1 : 1));
    const tests = skipTests
      ? []
      : [...new Set([...testsBeside(g, f.path), ...dependents.filter((n) => g.isTest[n])])].map((n) => g.paths[n]!).sort();
    const symbols =
      opts.includeSymbols === false
        ? []
        : symbolsOf.all(f.id, MAX_SYMBOLS).map((s) => {
            const out: TaskContextFile["symbols"][number] = {
              name: s.name,
              kind: s.kind as SymbolKind,
              line: s.line_start,
              exported: s.exported === 1,
            };
            if (s.parent) out.parent = s.parent;
            return out;
          });
    files.push({
      file: f.path,
      dependencies: deps.map((n) => g.paths[n]!).sort(),
      dependents: top.slice(0, maxDependents).map((n) => g.paths[n]!),
      dependentCount: dependents.length,
      tests,
      symbols,
    });
  }
  if (files.length === 0) return fail(KOTA_ERRORS.NOT_INDEXED, warnings.join(" "));
  return { ok: true, files, warnings };
}
