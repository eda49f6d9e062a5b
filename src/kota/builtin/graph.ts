/**
 * The file-level import graph of one repository in memory (compressed adjacency in typed arrays),
 * rebuilt when the repository's generation changes. Breadth-first walks over it answer deps,
 * impact and task context without a recursive query per path.
 */
import type { Db } from "../../db/open.ts";

export type Graph = {
  generation: number;
  paths: string[];
  ids: Int32Array;
  indexOf: Map<string, number>;
  indexOfId: Map<number, number>;
  isTest: Uint8Array;
  out: { offsets: Int32Array; targets: Int32Array };
  in: { offsets: Int32Array; targets: Int32Array };
};

function compress(n: number, edges: Int32Array, from: 0 | 1): { offsets: Int32Array; targets: Int32Array } {
  const offsets = new Int32Array(n + 1);
  const m = edges.length / 2;
  for (let e = 0; e < m; e++) offsets[edges[e * 2 + from]! + 1]!++;
  for (let i = 0; i < n; i++) offsets[i + 1]! += offsets[i]!;
  const fill = offsets.slice(0, n);
  const targets = new Int32Array(m);
  for (let e = 0; e < m; e++) targets[fill[edges[e * 2 + from]!]!++] = edges[e * 2 + (1 - from)]!;
  return { offsets, targets };
}

export function buildGraph(db: Db, repoId: number, generation: number): Graph {
  const files = db
    .query<{ id: number; path: string; is_test: number }, [number]>(
      "SELECT id, path, is_test FROM code_files WHERE repo_id = ? ORDER BY id",
    )
    .all(repoId);
  const n = files.length;
  const ids = new Int32Array(n);
  const isTest = new Uint8Array(n);
  const paths: string[] = new Array(n);
  const indexOf = new Map<string, number>();
  const indexOfId = new Map<number, number>();
  files.forEach((f, i) => {
    ids[i] = f.id;
    isTest[i] = f.is_test;
    paths[i] = f.path;
    indexOf.set(f.path, i);
    indexOfId.set(f.id, i);
  });
  const rows = db
    .query<{ a: number; b: number }, [number]>(
      `SELECT DISTINCT i.file_id AS a, i.target_id AS b FROM code_imports i JOIN code_files f ON f.id = i.file_id
       WHERE f.repo_id = ? AND i.target_id IS NOT NULL AND i.target_id != i.file_id`,
    )
    .all(repoId);
  const edges = new Int32Array(rows.length * 2);
  let m = 0;
  for (const r of rows) {
    const a = indexOfId.get(r.a);
    const b = indexOfId.get(r.b);
    if (a === undefined || b === undefined) continue;
    edges[m++] = a;
    edges[m++] = b;
  }
  const used = edges.subarray(0, m);
  return { generation, paths, ids, indexOf, indexOfId, isTest, out: compress(n, used, 0), in: compress(n, used, 1) };
}

/**
 * The graph after some files' imports changed and nothing else (the same files, the same configs):
 * their outgoing edges are read again, every other edge is kept. Much cheaper than buildGraph on
 * a large repository, where reading every edge is most of the cost.
 */
export function patchGraph(db: Db, g: Graph, changedIds: number[], generation: number): Graph {
  const changed = new Set<number>();
  for (const id of changedIds) {
    const n = g.indexOfId.get(id);
    if (n !== undefined) changed.add(n);
  }
  const fresh = db
    .query<{ a: number; b: number }, [string]>(
      `SELECT DISTINCT file_id AS a, target_id AS b FROM code_imports
       WHERE file_id IN (SELECT value FROM json_each(?)) AND target_id IS NOT NULL AND target_id != file_id`,
    )
    .all(JSON.stringify(changedIds));
  const n = g.paths.length;
  const edges = new Int32Array(g.out.targets.length * 2 + fresh.length * 2);
  let m = 0;
  for (let u = 0; u < n; u++) {
    if (changed.has(u)) continue;
    for (let k = g.out.offsets[u]!; k < g.out.offsets[u + 1]!; k++) {
      edges[m++] = u;
      edges[m++] = g.out.targets[k]!;
    }
  }
  for (const r of fresh) {
    const a = g.indexOfId.get(r.a);
    const b = g.indexOfId.get(r.b);
    if (a === undefined || b === undefined) continue;
    edges[m++] = a;
    edges[m++] = b;
  }
  const used = edges.subarray(0, m);
  return { ...g, generation, out: compress(n, used, 0), in: compress(n, used, 1) };
}

/**
 * Nodes by shortest distance from `start` (level 0 = distance 1), up to `depth` levels; with
 * `skipTests` test files are neither listed nor walked through. `parent` records the first node
 * each was reached from (for "why" explanations).
 */
export function levels(
  g: Graph,
  starts: number[],
  direction: "out" | "in",
  depth: number,
  skipTests = false,
): { levels: number[][]; parent: Map<number, number> } {
  const adj = direction === "out" ? g.out : g.in;
  const seen = new Set<number>(starts);
  const parent = new Map<number, number>();
  const out: number[][] = [];
  let frontier = starts;
  for (let d = 0; d < depth && frontier.length > 0; d++) {
    const next: number[] = [];
    for (const u of frontier) {
      for (let k = adj.offsets[u]!; k < adj.offsets[u + 1]!; k++) {
        const v = adj.targets[k]!;
        if (seen.has(v) || (skipTests && g.isTest[v])) continue;
        seen.add(v);
        parent.set(v, u);
        next.push(v);
      }
    }
    out.push(next);
    frontier = next;
  }
  return { levels: out, parent };
}

export function degree(g: Graph, node: number, direction: "out" | "in"): number {
  const adj = direction === "out" ? g.out : g.in;
  return adj.offsets[node + 1]! - adj.offsets[node]!;
}
