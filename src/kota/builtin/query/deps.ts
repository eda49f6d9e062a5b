/** deps: the files a file imports and the files that import it, by distance, up to depth 3. */
import type { Result } from "../../../errors.ts";
import { checkDeps } from "../../checks.ts";
import type { DepsLevels, DepsOptions, DepsResult } from "../../contract.ts";
import { levels } from "../graph.ts";
import { lookupFile, type QueryEnv } from "./env.ts";
import { unresolvedImporters } from "./workspace-gaps.ts";

function shape(env: QueryEnv, ls: number[][]): DepsLevels {
  const name = (n: number) => env.graph.paths[n]!;
  const sorted = (xs: number[]) => xs.map(name).sort();
  const indirect: Record<string, string[]> = {};
  ls.slice(1).forEach((l, i) => {
    if (l.length > 0) indirect[String(i + 2)] = sorted(l);
  });
  return { direct: sorted(ls[0] ?? []), indirect };
}

export function queryDeps(env: QueryEnv, opts: DepsOptions): Result<DepsResult> {
  const checked = checkDeps(opts);
  if (!checked.ok) return checked;
  const { depth, direction } = checked;
  const file = lookupFile(env, opts.file);
  if (!file.ok) return file;
  const skipTests = opts.includeTests === false;
  const empty: DepsLevels = { direct: [], indirect: {} };
  const dependencies = direction === "dependents" ? empty : shape(env, levels(env.graph, [file.node], "out", depth, skipTests).levels);
  const dependents = direction === "dependencies" ? empty : shape(env, levels(env.graph, [file.node], "in", depth, skipTests).levels);
  const rows = env.db
    .query<{ specifier: string; status: number }, [number]>(
      "SELECT DISTINCT specifier, status FROM code_imports WHERE file_id = ? AND status IN (0, 4) ORDER BY specifier",
    )
    .all(file.id);
  const unresolved = [...new Set(rows.filter((r) => r.status === 0).map((r) => r.specifier))];
  const workspace = [...new Set(rows.filter((r) => r.status === 4).map((r) => r.specifier))];
  const result: DepsResult = { file: file.path, direction, dependencies, dependents, unresolved };
  if (workspace.length > 0) result.unresolvedWorkspace = workspace;
  const importers = direction === "dependencies" ? null : unresolvedImporters(env, file.path);
  if (importers) result.unresolvedImporters = { package: importers.name, files: importers.files };
  return { ok: true, ...result };
}
