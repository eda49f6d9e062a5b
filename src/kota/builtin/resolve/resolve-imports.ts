/** Points each stored import at the file it resolves to (code_imports.target_id and status), in pages. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type Db, immediate } from "../../../db/open.ts";
import type { ImportKind } from "../parse/facts.ts";
import { parseSmallProgram } from "../parse/oxc-binding.ts";
import { BUNDLER_CONFIG, entriesOfConfig } from "./bundle-entries.ts";
import { createPackages } from "./packages.ts";
import { createResolver, type Resolution } from "./resolver.ts";
import { createTsconfigs } from "./tsconfig.ts";

const PAGE = 5000;

/** code_imports.status: 0 unresolved, 1 resolved, 2 outside the repository, 3 not code, 4 a workspace package that did not resolve. */
export const statusOf = (r: Resolution): number =>
  r.status === "unresolved" ? (r.workspace ? 4 : 0) : r.status === "resolved" ? 1 : r.status === "external" ? 2 : 3;

function readText(root: string, path: string): string | null {
  try {
    return readFileSync(join(root, path), "utf8");
  } catch {
    return null;
  }
}

export type ConfigTextCache = Map<string, { mtime: number; text: string | null }>;

/** What resolving needs to know about a repository: its files and the configs that shape resolution. */
export type ResolveContext = {
  idByPath: Map<string, number>;
  pathById: Map<number, string>;
  resolver: ReturnType<typeof createResolver>;
  /** Whether files that are not indexed (assets) exist: asked afresh by each run. */
  existing: Map<string, boolean>;
};

/**
 * Reusing a context across runs: valid while the file set and the configs are those it was built
 * from, which the caller vouches for with `generation` (the repository's, after its last own write).
 */
export type ResolveCache = { generation: number; context: ResolveContext } | null;

export function resolveContext(
  db: Db,
  root: string,
  repoId: number,
  cache: ConfigTextCache = new Map(),
  warm?: WarmResolver,
): ResolveContext {
  const files = db.query<{ id: number; path: string }, [number]>("SELECT id, path FROM code_files WHERE repo_id = ?").all(repoId);
  const idByPath = new Map(files.map((f) => [f.path, f.id]));
  const pathById = new Map(files.map((f) => [f.id, f.path]));
  const watched = db
    .query<{ path: string; mtime_ms: number }, [number]>("SELECT path, mtime_ms FROM code_watch WHERE repo_id = ? AND is_dir = 0")
    .all(repoId);
  const fits = warm?.fits(idByPath.keys(), watched) === true;
  if (warm) warm.taken = fits;
  const { resolver, existing } = fits ? warm! : resolverOf(root, idByPath.keys(), watched, cache);
  return { idByPath, pathById, resolver, existing };
}

/**
 * A resolver built before the files are stored (from the listing of a full index run) and warmed up
 * on the stored files' imports while the parsers work: its configs are read and parsed then, not after
 * the last file. The context at the end takes it when the stored files and configs are the ones it
 * was built from; the answers it gave meanwhile are then this run's answers (`answers`, for the
 * resolveImports call that ends the run only: a later run asks again).
 */
export type WarmResolver = {
  resolver: ReturnType<typeof createResolver>;
  existing: Map<string, boolean>;
  fits(paths: Iterable<string>, watched: readonly { path: string; mtime_ms: number }[]): boolean;
  /** Resolves one stored import now, keeping the answer. */
  warmUp(from: string, specifier: string, kind: ImportKind): void;
  /** The answers so far, by answerKey. */
  answers: ReadonlyMap<string, Resolution>;
  /** Whether resolveContext took it (the files and configs are the ones it was built from). */
  taken: boolean;
};

/** The key of one import's answer: the importing file, the specifier and the kind of import decide it. */
export const answerKey = (from: string, specifier: string, kind: ImportKind): string => `${from}\0${specifier}\0${kind}`;

export function warmResolver(
  root: string,
  paths: Iterable<string>,
  watched: readonly { path: string; mtime_ms: number }[],
  cache: ConfigTextCache,
): WarmResolver {
  const built = resolverOf(root, paths, watched, cache);
  const configs = new Map(watched.map((w) => [w.path, w.mtime_ms]));
  const answers = new Map<string, Resolution>();
  return {
    ...built,
    answers,
    taken: false,
    warmUp(from, specifier, kind) {
      answers.set(answerKey(from, specifier, kind), built.resolver.resolve(from, specifier, kind));
    },
    fits(now, nowWatched) {
      let n = 0;
      for (const p of now) {
        if (!built.files.has(p)) return false;
        n++;
      }
      return n === built.files.size && nowWatched.length === configs.size && nowWatched.every((w) => configs.get(w.path) === w.mtime_ms);
    },
  };
}

function resolverOf(
  root: string,
  paths: Iterable<string>,
  watched: readonly { path: string; mtime_ms: number }[],
  cache: ConfigTextCache,
): { resolver: ReturnType<typeof createResolver>; existing: Map<string, boolean>; files: Set<string> } {
  const configs = new Set(watched.map((r) => r.path));
  const mtimes = new Map(watched.map((r) => [r.path, r.mtime_ms]));
  // A monorepo has hundreds of package.json files: read each again only when its mtime moved.
  const readConfig = (p: string): string | null => {
    const mtime = mtimes.get(p) ?? -1;
    const hit = cache.get(p);
    if (hit && hit.mtime === mtime) return hit.text;
    const text = readText(root, p);
    cache.set(p, { mtime, text });
    return text;
  };
  const existing = new Map<string, boolean>();
  const files = new Set(paths);
  const bundlerConfigs = [...configs].filter((p) => BUNDLER_CONFIG.test(p.slice(p.lastIndexOf("/") + 1)));
  const packages = createPackages({ packageFiles: [...configs].filter((p) => p.endsWith("package.json")), readText: readConfig });
  const resolver = createResolver({
    bundleEntries(dir) {
      // Two configs of one package that give a name different sources: the name is left out.
      const entries = new Map<string, string | null>();
      for (const c of bundlerConfigs) {
        if ((c.lastIndexOf("/") === -1 ? "." : c.slice(0, c.lastIndexOf("/"))) !== dir) continue;
        const text = readConfig(c);
        const program = text === null ? null : parseSmallProgram(c, text);
        if (!program) continue;
        for (const [name, source] of entriesOfConfig(program, dir, (p) => files.has(p)))
          entries.set(name, entries.has(name) && entries.get(name) !== source ? null : source);
      }
      return new Map([...entries].filter((e): e is [string, string] => e[1] !== null));
    },
    files,
    exists: (p) => {
      let e = existing.get(p);
      if (e === undefined) {
        e = existsSync(join(root, p));
        existing.set(p, e);
      }
      return e;
    },
    configFiles: [...configs].filter((p) => !p.endsWith("package.json") && !p.endsWith(".gitignore")),
    tsconfigs: createTsconfigs({
      has: (p) => configs.has(p),
      readText: readConfig,
      // A base config in a workspace package (`"extends": "@org/tsconfig/base.json"`), read from disk.
      exists: (p) => existsSync(join(root, p)),
      packageDir: (name, from) => packages.dirOf(name, from),
      packageJson: (dir) =>
        configs.has(`${dir}/package.json`) || (dir === "." && configs.has("package.json"))
          ? packages.read(dir === "." ? "package.json" : `${dir}/package.json`)
          : null,
    }),
    packages,
    hasPackageJson: (dir) => configs.has(dir === "." ? "package.json" : `${dir}/package.json`),
  });
  return { resolver, existing, files };
}

/**
 * Resolves the imports of `fileIds` (or of every file) of one repository. Writes only rows whose
 * answer changed; each page is its own transaction, so a huge repository never holds a long lock.
 * Returns the context it used, for the caller to reuse while the file set and configs stay.
 */

export function resolveImports(
  db: Db,
  root: string,
  repoId: number,
  fileIds?: number[],
  cache: ConfigTextCache = new Map(),
  context: ResolveContext = resolveContext(db, root, repoId, cache),
  /** Answers this run already has (a warm resolver's, when resolveContext took it): not asked again. */
  answers?: ReadonlyMap<string, Resolution>,
  /** Only these imports, by id (of all the repository's: the others' stored answers are those in `answers`). */
  importIds?: readonly number[],
): ResolveContext {
  const { idByPath, pathById, resolver } = context;
  context.existing.clear();
  const update = db.prepare("UPDATE code_imports SET target_id = ?, status = ? WHERE id = ?");
  type Row = { id: number; file_id: number; specifier: string; kind: ImportKind; target_id: number | null; status: number };
  const apply = (rows: Row[]) => {
    immediate(db, () => {
      for (const row of rows) {
        const from = pathById.get(row.file_id);
        if (from === undefined) continue;
        const r = answers?.get(answerKey(from, row.specifier, row.kind)) ?? resolver.resolve(from, row.specifier, row.kind);
        const target = r.status === "resolved" ? (idByPath.get(r.path) ?? null) : null;
        const status = statusOf(r);
        if (target !== row.target_id || status !== row.status) update.run(target, status, row.id);
      }
    });
  };
  if (importIds) {
    const page = db.prepare<Row, [string]>(
      "SELECT id, file_id, specifier, kind, target_id, status FROM code_imports WHERE id IN (SELECT value FROM json_each(?))",
    );
    for (let i = 0; i < importIds.length; i += 500) apply(page.all(JSON.stringify(importIds.slice(i, i + 500))));
    return context;
  }
  if (fileIds) {
    const page = db.prepare<Row, [string]>(
      "SELECT id, file_id, specifier, kind, target_id, status FROM code_imports WHERE file_id IN (SELECT value FROM json_each(?))",
    );
    for (let i = 0; i < fileIds.length; i += 500) apply(page.all(JSON.stringify(fileIds.slice(i, i + 500))));
    return context;
  }
  const page = db.prepare<Row, [number, number, number]>(
    `SELECT i.id, i.file_id, i.specifier, i.kind, i.target_id, i.status FROM code_imports i JOIN code_files f ON f.id = i.file_id
     WHERE f.repo_id = ? AND i.id > ? ORDER BY i.id LIMIT ?`,
  );
  for (let after = 0; ; ) {
    const rows = page.all(repoId, after, PAGE);
    if (rows.length === 0) break;
    apply(rows);
    after = rows[rows.length - 1]!.id;
  }
  return context;
}
