/**
 * usages: where a symbol is used, resolved through the import graph. A top-level symbol's uses are
 * its own file's references to it plus every reference, in any file, to an import that reaches it,
 * directly or through `export { x } from` / `export *` chains (followed from the defining file
 * outwards). A member's uses are `this.x` in its class and, on receivers of unknown type, accesses
 * by name in files that depend on the defining file.
 */
import { fail, type Result } from "../../../errors.ts";
import { KOTA_ERRORS, type Usage, type UsagesOptions, type UsagesResult } from "../../contract.ts";
import { levels } from "../graph.ts";
import { MAX_SEGMENTS } from "../parse/ref-chains.ts";
import { lineReader, lookupFile, type QueryEnv } from "./env.ts";
import { unpackSites } from "./sites.ts";
import { gapsReaching, gapsSentence } from "./workspace-gaps.ts";

type Def = { file_id: number; path: string; name: string; parent: string | null; line_start: number; kind: string };
type RefRow = { file_id: number; sites: string };

/** A code_exports row for a name its file exports without declaring it: a namespace re-export or a rename. */
const EXPORTED_ONLY = `name != '*' AND (CASE WHEN import_id IS NULL THEN local IS NOT name ELSE imported = '*' OR imported IS NOT name END)`;

/**
 * Every (file, name) under which the symbol `name` of `fileId` can be imported: its own exports,
 * then re-exports by name (`export { a as b } from`), `export *` (every name but default, unless the
 * re-exporting file declares its own), and namespace re-exports (`export * as ns from`, or
 * `import * as ns` then `export { ns }`), which make it `ns.name` (dotted names, see ref-chains.ts).
 */
function exportAliases(env: QueryEnv, fileId: number, name: string): [number, string][] {
  const { db } = env;
  // Its own exports, or the name itself when this file exports it without declaring it (see exportedOnly).
  const own = db
    .query<{ name: string }, [number, string, string]>(
      `SELECT name FROM code_exports WHERE file_id = ?
       AND ((local = ? AND import_id IS NULL) OR (name = ? AND ${EXPORTED_ONLY}))`,
    )
    .all(fileId, name, name);
  const out: [number, string][] = [];
  const seen = new Set<string>();
  const queue: [number, string][] = [];
  const push = (f: number, n: string) => {
    const key = `${f}\0${n}`;
    if (seen.has(key) || n.split(".").length > MAX_SEGMENTS) return;
    seen.add(key);
    out.push([f, n]);
    queue.push([f, n]);
  };
  for (const r of own) push(fileId, r.name);
  const reexports = db.prepare<{ file_id: number; name: string; imported: string }, [number, string]>(
    `SELECT e.file_id, e.name, e.imported FROM code_exports e JOIN code_imports i ON i.id = e.import_id
     WHERE i.target_id = ? AND (e.imported = ? OR e.imported = '*')`,
  );
  const shadows = db.prepare<{ x: number }, [number, string]>(
    "SELECT 1 AS x FROM code_exports WHERE file_id = ? AND name = ? AND NOT (imported IS '*' AND name = '*') LIMIT 1",
  );
  while (queue.length > 0) {
    const [g, n] = queue.shift()!;
    const dot = n.indexOf(".");
    const head = dot === -1 ? n : n.slice(0, dot);
    const rest = dot === -1 ? "" : n.slice(dot);
    for (const r of reexports.all(g, head)) {
      if (r.imported !== "*") push(r.file_id, r.name + rest);
      else if (r.name !== "*") push(r.file_id, `${r.name}.${n}`);
      else if (head !== "default" && !shadows.get(r.file_id, head)) push(r.file_id, n);
    }
  }
  return out;
}

/**
 * A name a file exports without declaring it is a name of that file as TypeScript sees it: a
 * namespace it re-exports (`export * as ns from "./m"`, `import * as ns` then `export { ns }`), a
 * rename (`export { a as b } from "./m"`, `export { a as b }`). Its uses are those through this
 * file's export, as TypeScript's for that alias. (A name passed on unchanged is the original's: the
 * answer then names the file that declares it.)
 */
function exportedOnly(env: QueryEnv, name: string, fileId: number | null): Def[] {
  return env.db
    .query<Def, [number, string, number | null, number | null]>(
      `SELECT DISTINCT e.file_id, f.path, e.name, NULL AS parent, e.line AS line_start, 'export' AS kind
       FROM code_exports e JOIN code_files f ON f.id = e.file_id
       WHERE f.repo_id = ? AND e.name = ? AND ${EXPORTED_ONLY} AND (? IS NULL OR e.file_id = ?)
       ORDER BY f.path, e.line`,
    )
    .all(env.repoId, name, fileId, fileId);
}

function parseSymbol(symbol: string): { name: string; parent: string | null } {
  const dot = symbol.lastIndexOf(".");
  if (dot > 0 && dot < symbol.length - 1) return { parent: symbol.slice(0, dot), name: symbol.slice(dot + 1) };
  return { parent: null, name: symbol };
}

export function queryUsages(env: QueryEnv, opts: UsagesOptions): Result<UsagesResult> {
  const symbol = opts.symbol?.trim() ?? "";
  if (!symbol) return fail(KOTA_ERRORS.BAD_INPUT, "Empty symbol: pass a name such as compose, or Class.method for a member.");
  const { name, parent } = parseSymbol(symbol);
  let fileId: number | null = null;
  let filePath: string | undefined;
  if (opts.file) {
    const f = lookupFile(env, opts.file);
    if (!f.ok) return f;
    fileId = f.id;
    filePath = f.path;
  }
  const all = env.db
    .query<Def, [number, string]>(
      `SELECT s.file_id, f.path, s.name, s.parent, s.line_start, s.kind FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE f.repo_id = ? AND s.name = ? ORDER BY s.exported DESC, f.path, s.line_start`,
    )
    .all(env.repoId, name);
  let defs = all.filter((d) => (fileId === null || d.file_id === fileId) && (parent === null || d.parent === parent));
  // A bare name means the top-level symbol when there is one; members only otherwise.
  if (parent === null && defs.some((d) => d.parent === null)) defs = defs.filter((d) => d.parent === null);
  if (defs.length === 0 && parent === null) defs = exportedOnly(env, name, fileId);
  if (defs.length === 0) return fail(KOTA_ERRORS.NO_SUCH_SYMBOL, noSuchSymbol(env, symbol, name, filePath, all));

  const skipTests = opts.includeTests === false;
  const rows: RefRow[] = [];
  let note: string | undefined;
  const local = env.db.prepare<RefRow, [number, string]>(
    "SELECT file_id, sites FROM code_refs WHERE file_id = ? AND name = ? AND import_id IS NULL AND member = 0",
  );
  const viaImport = env.db.prepare<RefRow, [number, string]>(
    "SELECT r.file_id, r.sites FROM code_refs r JOIN code_imports i ON i.id = r.import_id WHERE i.target_id = ? AND r.name = ?",
  );
  for (const d of defs) {
    if (d.parent === null) {
      rows.push(...local.all(d.file_id, d.name));
      for (const [g, n] of exportAliases(env, d.file_id, d.name)) rows.push(...viaImport.all(g, n));
      continue;
    }
    rows.push(
      ...env.db
        .query<RefRow, [number, string, string]>(
          "SELECT file_id, sites FROM code_refs WHERE file_id = ? AND name = ? AND owner = ? AND member = 1",
        )
        .all(d.file_id, d.name, d.parent),
    );
    const node = env.graph.indexOfId.get(d.file_id);
    if (node === undefined) continue;
    const reach = new Set([
      d.file_id,
      ...levels(env.graph, [node], "in", 3)
        .levels.flat()
        .map((n) => env.graph.ids[n]!),
    ]);
    const byName = env.db
      .query<RefRow, [string]>("SELECT file_id, sites FROM code_refs WHERE name = ? AND member = 1 AND owner IS NULL")
      .all(d.name);
    rows.push(...byName.filter((r) => reach.has(r.file_id)));
    note = `${d.parent}.${d.name} is a member: uses on receivers whose type is not known here are matched by name in ${d.path} and the files that depend on it, so some may belong to another ${d.name}.`;
  }

  const read = lineReader(env.root);
  const seen = new Set<string>();
  const usages: Usage[] = [];
  for (const r of rows) {
    const node = env.graph.indexOfId.get(r.file_id);
    if (node === undefined || (skipTests && env.graph.isTest[node])) continue;
    const file = env.graph.paths[node]!;
    for (const site of unpackSites(r.sites)) {
      const key = `${r.file_id}:${site.line}:${site.col}`;
      if (seen.has(key)) continue;
      seen.add(key);
      usages.push({ file, line: site.line, column: site.col, kind: site.kind, context: "" });
    }
  }
  usages.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
  const limit = opts.limit && opts.limit > 0 ? Math.floor(opts.limit) : usages.length;
  const shown = usages.slice(0, limit);
  for (const u of shown) u.context = read(u.file, u.line);
  const result: UsagesResult = {
    symbol,
    definedIn: defs.map((d) => ({ file: d.path, line: d.line_start })),
    usages: shown,
  };
  if (shown.length < usages.length) result.total = usages.length;
  if (note) result.note = note;
  const gaps = gapsReaching(
    env,
    defs.map((d) => d.path),
  );
  if (gaps) result.incomplete = gapsSentence(gaps, "uses");
  return { ok: true, ...result };
}

function noSuchSymbol(env: QueryEnv, symbol: string, name: string, file: string | undefined, sameName: Def[]): string {
  if (file && sameName.length > 0) {
    // Only a definition the file imports (directly or through others) can be the one it means.
    const node = env.graph.indexOf.get(file);
    const reached = new Set(node === undefined ? [] : levels(env.graph, [node], "out", env.graph.paths.length).levels.flat());
    const paths = [...new Set(sameName.map((d) => d.path))];
    const related = paths.filter((p) => reached.has(env.graph.indexOf.get(p) ?? -1));
    if (related.length > 0)
      return `${file} defines no symbol ${symbol}; ${name} is defined in ${related.slice(0, 5).join(", ")}, which it imports. Pass that as the file, or leave the file out.`;
    return (
      `${file} defines no symbol ${symbol} and imports none. Unrelated symbols of that name, in files ${file} does not import: ` +
      `${paths.slice(0, 5).join(", ")}. Pass one of those as the file only if you mean it; kota search ${name} finds other mentions.`
    );
  }
  const like = env.db
    .query<{ name: string; path: string }, [number, string]>(
      `SELECT s.name, f.path FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE f.repo_id = ? AND s.name LIKE ? ESCAPE '\\' ORDER BY s.exported DESC, length(s.name) LIMIT 5`,
    )
    .all(env.repoId, `%${name.replace(/[%_\\]/g, "\\$&")}%`);
  const hint = like.length > 0 ? ` Similar: ${like.map((l) => `${l.name} (${l.path})`).join(", ")}.` : " Use kota search to find the name.";
  return `No symbol named ${symbol} in the index${file ? ` for ${file}` : ""}.${hint}`;
}
