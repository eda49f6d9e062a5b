/** What every query gets: the database, the repository, its graph, and file lookups that explain misses. */
import { readFileSync } from "node:fs";
import { join, posix } from "node:path";
import type { Db } from "../../../db/open.ts";
import { fail, type Result } from "../../../errors.ts";
import { KOTA_ERRORS } from "../../contract.ts";
import { toRepoPath, whyNotIndexed } from "../../repo-paths.ts";
import type { Graph } from "../graph.ts";

export type QueryEnv = { db: Db; root: string; repoId: number; graph: Graph };

/** A caller's path -> the indexed file's graph node, or a failure that says why it is not there. */
export function lookupFile(env: QueryEnv, input: string): Result<{ path: string; node: number; id: number }> {
  const p = toRepoPath(env.root, input);
  if (!p.ok) return p;
  const node = env.graph.indexOf.get(p.path);
  if (node !== undefined) return { ok: true, path: p.path, node, id: env.graph.ids[node]! };
  const base = posix.basename(p.path).replace(/\.[^.]+$/, "");
  const similar = env.graph.paths.filter((x) => posix.basename(x).replace(/\.[^.]+$/, "") === base).slice(0, 5);
  return fail(KOTA_ERRORS.NOT_INDEXED, whyNotIndexed(env.root, p.path, similar));
}

/** Source lines for usage and match context, read from the working tree (which the index mirrors). */
export function lineReader(root: string): (path: string, line: number) => string {
  const cache = new Map<string, string[]>();
  return (path, line) => {
    let lines = cache.get(path);
    if (!lines) {
      try {
        lines = readFileSync(join(root, path), "utf8").split(/\r?\n/);
      } catch {
        lines = [];
      }
      cache.set(path, lines);
    }
    const text = (lines[line - 1] ?? "").trim();
    return text.length > 200 ? `${text.slice(0, 197)}...` : text;
  };
}
