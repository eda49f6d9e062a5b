/**
 * impact: what a change to some files reaches. Affected files are the changed files and everything
 * that depends on them within three import steps, each with the reason; tests are existing test
 * files among those dependents or in the conventional place beside a changed file.
 */
import { fail, type Result } from "../../../errors.ts";
import { type AffectedFile, type ImpactOptions, type ImpactResult, KOTA_ERRORS } from "../../contract.ts";
import { toRepoPath } from "../../repo-paths.ts";
import { conventionalTests } from "../../test-files.ts";
import { degree, type Graph, levels } from "../graph.ts";
import { lookupFile, type QueryEnv } from "./env.ts";
import { gapsReaching, gapsSentence } from "./workspace-gaps.ts";

const DEPTH = 3;

/** Direct and 2-3 step dependent counts of a node. */
function counts(g: Graph, node: number): { direct: number; indirect: number } {
  const ls = levels(g, [node], "in", DEPTH).levels;
  return { direct: ls[0]?.length ?? 0, indirect: ls.slice(1).reduce((n, l) => n + l.length, 0) };
}

/** Tests next to a file by naming convention that exist in the index. */
export function testsBeside(g: Graph, path: string): number[] {
  const out: number[] = [];
  for (const p of conventionalTests(path)) {
    const n = g.indexOf.get(p);
    // Only files the project counts as tests (a `x.test.ts` the runner never picks up is not one).
    if (n !== undefined && g.isTest[n] && !out.includes(n)) out.push(n);
  }
  return out;
}

export function queryImpact(env: QueryEnv, opts: ImpactOptions): Result<ImpactResult> {
  const g = env.graph;
  const modify = opts.modify ?? [];
  const create = opts.create ?? [];
  const del = opts.delete ?? [];
  if (modify.length + create.length + del.length === 0) {
    return fail(KOTA_ERRORS.BAD_INPUT, "Name at least one file to modify, create or delete (paths relative to the repository root).");
  }
  const limit = Math.max(1, Math.floor(opts.limit ?? 50));
  const warnings: string[] = [];
  const changed: { node: number; how: "modified" | "deleted" }[] = [];
  for (const [list, how] of [
    [modify, "modified"],
    [del, "deleted"],
  ] as const) {
    for (const input of list) {
      const f = lookupFile(env, input);
      if (f.ok) changed.push({ node: f.node, how });
      else if (f.code === KOTA_ERRORS.FILE_OUTSIDE_REPO) return f;
      else warnings.push(f.message);
    }
  }
  for (const input of create) {
    const p = toRepoPath(env.root, input);
    if (!p.ok) return p;
    if (g.indexOf.has(p.path)) warnings.push(`${p.path} already exists; it is treated as modified, not created.`);
    const n = g.indexOf.get(p.path);
    if (n !== undefined) changed.push({ node: n, how: "modified" });
  }
  if (changed.length === 0 && create.length === 0) {
    return fail(KOTA_ERRORS.NOT_INDEXED, `None of the files is in the index. ${warnings.join(" ")}`);
  }

  const starts = changed.map((c) => c.node);
  const reach = levels(g, starts, "in", DEPTH);
  const changedSet = new Set(starts);
  const affected: { node: number; why: string }[] = [];
  for (const c of changed) {
    const k = counts(g, c.node);
    const why =
      k.direct === 0 ? `${c.how}; no file imports it` : `${c.how}; ${k.direct} files import it directly, ${k.indirect} more through them`;
    affected.push({ node: c.node, why });
  }
  reach.levels.forEach((level, d) => {
    for (const n of level) {
      const via = reach.parent.get(n)!;
      let root = via;
      while (!changedSet.has(root)) root = reach.parent.get(root)!;
      const deleted = changed.find((c) => c.node === root)?.how === "deleted";
      const why =
        d === 0
          ? `imports ${g.paths[via]}${deleted ? ", which is deleted: this import breaks" : ""}`
          : `depends on ${g.paths[root]} through ${g.paths[via]}`;
      affected.push({ node: n, why });
    }
  });
  const directCount = reach.levels[0]?.length ?? 0;
  const indirectCount = reach.levels.slice(1).reduce((n, l) => n + l.length, 0);

  const tests: number[] = [];
  for (const s of starts) for (const t of testsBeside(g, g.paths[s]!)) if (!tests.includes(t)) tests.push(t);
  for (const level of reach.levels) for (const n of level) if (g.isTest[n] && !tests.includes(n)) tests.push(n);
  for (const s of starts) if (g.isTest[s] && !tests.includes(s)) tests.push(s);

  const brokenImports = changed.filter((c) => c.how === "deleted").reduce((n, c) => n + degree(g, c.node, "in"), 0);
  if (brokenImports > 0) warnings.push(`${brokenImports} import(s) of deleted files must be changed or the build breaks.`);
  const gaps = gapsReaching(
    env,
    starts.map((s) => g.paths[s]!),
  );
  if (gaps) warnings.push(`${gapsSentence(gaps, "dependents")} The affected files may be more than these.`);
  const hub = changed.map((c) => ({ c, k: degree(g, c.node, "in") })).sort((a, b) => b.k - a.k)[0];
  const total = directCount + indirectCount;
  const risk: ImpactResult["risk"] =
    brokenImports > 0 || total >= 30 || (hub?.k ?? 0) >= 10 ? "high" : total >= 5 || (hub?.k ?? 0) >= 3 ? "medium" : "low";
  const reason =
    brokenImports > 0
      ? "deleted files are still imported"
      : hub && hub.k > 0
        ? `${g.paths[hub.c.node]} has ${hub.k} direct dependents`
        : "nothing depends on the changed files";
  const parts = [
    modify.length ? `modify ${modify.length}` : "",
    create.length ? `create ${create.length}` : "",
    del.length ? `delete ${del.length}` : "",
  ].filter(Boolean);
  const summary =
    `Risk ${risk} (${reason}). ${parts.join(", ")} file(s): ${total} dependent files within ${DEPTH} steps ` +
    `(${directCount} direct, ${indirectCount} indirect); ${tests.length} existing test file(s) to run.`;

  // Dependent counts only for the files shown: each is a walk of its own.
  const shownAffected = affected.slice(0, limit).map((a): AffectedFile => ({ file: g.paths[a.node]!, why: a.why, ...counts(g, a.node) }));
  return {
    ok: true,
    risk,
    summary,
    affected: shownAffected,
    tests: tests.slice(0, limit).map((n) => g.paths[n]!),
    warnings,
    counts: { affected: affected.length, direct: directCount, indirect: indirectCount, tests: tests.length },
  };
}
