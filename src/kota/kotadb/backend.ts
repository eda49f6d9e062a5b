/**
 * The kotadb backend: the same contract answered by a KotaDB process (kotadb-server.ts) per
 * repository. Paths are checked and made repo-relative here, as the built-in index does, so both
 * backends fail the same way on the same input. A query before the repository was ever indexed
 * is refused (KotaDB would otherwise try to clone it from GitHub).
 */
import { basename } from "node:path";
import { fail, type Result } from "../../errors.ts";
import { checkDeps } from "../checks.ts";
import {
  type CodeIndexBackend,
  type DepsOptions,
  type DepsResult,
  type ImpactOptions,
  type ImpactResult,
  type IndexOptions,
  type IndexResult,
  KOTA_ERRORS,
  notIndexedStatus,
  type SearchOptions,
  type SearchResult,
  type StatusResult,
  type TaskContextFile,
  type TaskContextOptions,
  type TaskContextResult,
  type UsagesOptions,
  type UsagesResult,
} from "../contract.ts";
import { toRepoPath, whyNotIndexed } from "../repo-paths.ts";
import { conventionalTests, isTestFile } from "../test-files.ts";
import * as map from "./map.ts";
import type { KotaDbServer } from "./server.ts";

const LINES_PER_FILE = 5;

export function createKotaDbBackend(o: { root: string; server: KotaDbServer; timeoutMs: number }): CodeIndexBackend & {
  server: KotaDbServer;
} {
  const { root, server } = o;
  // KotaDB's name for a repository indexed from a local folder.
  const repository = `local/${basename(root)}`;
  let indexed: boolean | null = null;

  const notIndexed = () =>
    fail(
      KOTA_ERRORS.REPO_NOT_INDEXED,
      `The repository ${root} has not been indexed by KotaDB yet. Run kota index first (KotaDB takes 5-20 s on a repository of a few hundred files).`,
    );

  const isIndexed = async (): Promise<Result<{ indexed: boolean; indexedAt: string | null }>> => {
    const r = await server.call("list_recent_files", { limit: 1, repository });
    if (!r.ok) return r;
    const first = map.obj(map.arr(map.obj(r.json).results)[0]);
    const yes = map.notFound(r.json) === null;
    indexed = yes;
    return { ok: true, indexed: yes, indexedAt: yes ? map.str(first.indexedAt) || null : null };
  };

  /** Calls a query tool once the repository is known to be indexed. */
  const query = async (name: string, args: Record<string, unknown>): Promise<Result<{ json: unknown }>> => {
    if (indexed !== true) {
      const r = await isIndexed();
      if (!r.ok) return r;
      if (!r.indexed) return notIndexed();
    }
    const r = await server.call(name, { ...args, repository });
    if (r.ok && map.notFound(r.json) === "repository") {
      indexed = false;
      return notIndexed();
    }
    return r;
  };

  const repoPath = (input: string): Result<{ path: string }> => toRepoPath(root, input);
  const fileMissing = (path: string) => fail(KOTA_ERRORS.NOT_INDEXED, whyNotIndexed(root, path, []));

  const index = async (opts: IndexOptions = {}): Promise<Result<IndexResult>> => {
    const started = performance.now();
    opts.onProgress?.(0, 0);
    const r = await server.call("index_repository", { repository, localPath: root }, { signal: opts.signal, timeoutMs: o.timeoutMs * 10 });
    if (!r.ok) return r;
    indexed = true;
    const stats = map.obj(map.obj(r.json).stats);
    const files = map.num(stats.files_indexed);
    opts.onProgress?.(files, files);
    return {
      ok: true,
      repository: root,
      files,
      symbols: map.num(stats.symbols_extracted),
      references: map.num(stats.references_extracted),
      ms: Math.round(performance.now() - started),
    };
  };

  const search = async (opts: SearchOptions): Promise<Result<SearchResult>> => {
    const q = opts.query?.trim() ?? "";
    if (!q) return fail(KOTA_ERRORS.BAD_INPUT, "Empty query: pass text to find in code or a symbol name.");
    const output = opts.output ?? "compact";
    if (!["paths", "compact", "snippet"].includes(output))
      return fail(KOTA_ERRORS.BAD_INPUT, `output must be paths, compact or snippet (got ${output}).`);
    const limit = Math.max(1, Math.min(100, Math.floor(opts.limit ?? 20)));
    const scope = opts.scope && opts.scope.length > 0 ? opts.scope : ["code", "symbols"];
    const result: SearchResult = { query: q, output, paths: [], code: [], symbols: [], total: { files: 0, symbols: 0 } };
    const filters = { repository };
    if (scope.includes("code")) {
      const contextLines = Math.max(0, Math.min(10, Math.floor(opts.contextLines ?? 2)));
      const r = await query("search", {
        query: q,
        scope: ["code"],
        limit,
        filters,
        output: output === "paths" ? "compact" : "snippet",
        ...(output === "paths" ? {} : { context_lines: output === "snippet" ? contextLines : 0 }),
      });
      if (!r.ok) return r;
      if (output === "paths") result.paths = map.pathMatches(r.json);
      else result.code = map.codeMatches(r.json, { limit, perFile: LINES_PER_FILE, snippet: output === "snippet" });
      result.total.files = map.num(map.obj(map.obj(r.json).counts).code);
    }
    if (scope.includes("symbols")) {
      const r = await query("search", { query: q, scope: ["symbols"], output: "full", limit, filters });
      if (!r.ok) return r;
      result.symbols = map.symbolMatches(r.json);
      result.total.symbols = map.num(map.obj(map.obj(r.json).counts).symbols);
    }
    if (result.total.files === 0 && result.total.symbols === 0)
      result.tips = ["Nothing matched. Try fewer or shorter terms, or search symbols by name."];
    return { ok: true, ...result };
  };

  const deps = async (opts: DepsOptions): Promise<Result<DepsResult>> => {
    const checked = checkDeps(opts);
    if (!checked.ok) return checked;
    const { depth, direction } = checked;
    const p = repoPath(opts.file);
    if (!p.ok) return p;
    const r = await query("search_dependencies", { file_path: p.path, direction, depth, include_tests: opts.includeTests ?? true });
    if (!r.ok) return r;
    if (map.notFound(r.json) === "file") return fileMissing(p.path);
    const o = map.obj(r.json);
    return {
      ok: true,
      file: p.path,
      direction,
      dependencies: map.depsLevels(o.dependencies),
      dependents: map.depsLevels(o.dependents),
      unresolved: map.strings(o.unresolved_imports).sort(),
    };
  };

  const usages = async (opts: UsagesOptions): Promise<Result<UsagesResult>> => {
    const symbol = opts.symbol?.trim() ?? "";
    if (!symbol) return fail(KOTA_ERRORS.BAD_INPUT, "Empty symbol: pass a name such as compose, or Class.method for a member.");
    let file: string | undefined;
    if (opts.file) {
      const p = repoPath(opts.file);
      if (!p.ok) return p;
      file = p.path;
    }
    const r = await query("find_usages", { symbol, ...(file ? { file } : {}), include_tests: opts.includeTests ?? true });
    if (!r.ok) return r;
    const all = map.usages(r.json);
    const defs = map.definedIn(map.obj(r.json).defined_in);
    if (defs.length === 0 && all.length === 0) {
      return fail(
        KOTA_ERRORS.NO_SUCH_SYMBOL,
        `No symbol named ${symbol} in the index${file ? ` for ${file}` : ""}. Use kota search to find the name.`,
      );
    }
    const limit = opts.limit && opts.limit > 0 ? Math.floor(opts.limit) : all.length;
    const result: UsagesResult = { symbol, definedIn: defs, usages: all.slice(0, limit) };
    if (limit < all.length) result.total = all.length;
    return { ok: true, ...result };
  };

  const impact = async (opts: ImpactOptions & { description?: string }): Promise<Result<ImpactResult>> => {
    const lists: Record<"modify" | "create" | "delete", string[]> = { modify: [], create: [], delete: [] };
    for (const key of ["modify", "create", "delete"] as const) {
      for (const input of opts[key] ?? []) {
        const p = repoPath(input);
        if (!p.ok) return p;
        lists[key].push(p.path);
      }
    }
    if (lists.modify.length + lists.create.length + lists.delete.length === 0) {
      return fail(KOTA_ERRORS.BAD_INPUT, "Name at least one file to modify, create or delete (paths relative to the repository root).");
    }
    const r = await query("analyze_change_impact", {
      change_type: "refactor",
      description: opts.description?.trim() || "code change",
      files_to_modify: lists.modify,
      files_to_create: lists.create,
      files_to_delete: lists.delete,
    });
    if (!r.ok) return r;
    return { ok: true, ...map.impact(r.json, root, Math.max(1, Math.floor(opts.limit ?? 50))) };
  };

  const taskContext = async (opts: TaskContextOptions): Promise<Result<TaskContextResult>> => {
    if (!opts.files || opts.files.length === 0)
      return fail(KOTA_ERRORS.BAD_INPUT, "Name at least one file (relative to the repository root).");
    const includeTests = opts.includeTests !== false;
    const paths: string[] = [];
    for (const input of opts.files) {
      const p = repoPath(input);
      if (!p.ok) return p;
      paths.push(p.path);
    }
    const ctx = await query("generate_task_context", {
      files: paths,
      include_tests: includeTests,
      include_symbols: opts.includeSymbols !== false,
      max_impacted_files: 50,
    });
    if (!ctx.ok) return ctx;
    const targets = map.arr(map.obj(ctx.json).targetFiles).map(map.obj);
    const knownTests = new Set(map.strings(map.obj(ctx.json).testFiles));
    const warnings: string[] = [];
    const files: TaskContextFile[] = [];
    for (const path of paths) {
      const d = await query("search_dependencies", { file_path: path, direction: "both", depth: 1, include_tests: includeTests });
      if (!d.ok) return d;
      if (map.notFound(d.json) === "file") {
        warnings.push(whyNotIndexed(root, path, []));
        continue;
      }
      const o = map.obj(d.json);
      const dependents = map.depsLevels(o.dependents).direct;
      const beside = new Set(conventionalTests(path));
      const tests = [...new Set([...dependents.filter(isTestFile), ...[...knownTests].filter((t) => beside.has(t))])].sort();
      const target = targets.find((t) => map.str(t.path) === path);
      files.push({
        file: path,
        dependencies: map.depsLevels(o.dependencies).direct,
        dependents: dependents.slice(0, Math.max(0, Math.floor(opts.maxDependents ?? 10))),
        dependentCount: dependents.length,
        tests: includeTests ? tests : [],
        // KotaDB's task context does not say which symbols are exported.
        symbols: map.arr(target?.symbols).map((s) => {
          const x = map.obj(s);
          return { name: map.str(x.name), kind: map.symbolKind(map.str(x.kind)), line: map.num(x.line), exported: false };
        }),
      });
    }
    if (files.length === 0) return fail(KOTA_ERRORS.NOT_INDEXED, warnings.join(" "));
    return { ok: true, files, warnings };
  };

  const status = async (): Promise<Result<StatusResult>> => {
    const base = notIndexedStatus("kotadb", root);
    const known = await isIndexed();
    if (!known.ok) return { ok: true, ...base, server: server.info() };
    if (!known.indexed) return { ok: true, ...base, server: server.info() };
    const stats = await server.call("get_index_statistics", {});
    const s = stats.ok ? map.obj(stats.json) : {};
    return {
      ok: true,
      ...base,
      indexed: true,
      indexedAt: known.indexedAt,
      files: map.num(s.files),
      symbols: map.num(s.symbols),
      references: map.num(s.references),
      server: server.info(),
    };
  };

  return {
    name: "kotadb",
    root,
    server,
    index,
    search,
    deps,
    usages,
    impact,
    taskContext,
    status,
    close: () => server.close(),
  };
}
