/**
 * search: code text (case-insensitive substrings through the trigram index; every term must occur
 * in the file) and symbols (name contains the query; exact and prefix matches first).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fail, type Result } from "../../../errors.ts";
import {
  type CodeMatch,
  KOTA_ERRORS,
  type PathMatch,
  type SearchOptions,
  type SearchOutput,
  type SearchResult,
  type SymbolKind,
  type SymbolMatch,
} from "../../contract.ts";
import type { QueryEnv } from "./env.ts";
import { wordQuery } from "./search-words.ts";

const MAX_LIMIT = 100;
const LINES_PER_FILE = 5;
// Files read from disk to confirm a match and find its lines: candidates from the index, or all (fallback).
const MAX_CANDIDATES = 5000;
const MAX_SCAN = 20000;

function terms(query: string): string[] {
  const q = query.trim();
  if (q.length > 1 && q.startsWith('"') && q.endsWith('"')) return [q.slice(1, -1)];
  return q.split(/\s+/).filter(Boolean);
}

type FileHit = { path: string; lines: number[]; full: boolean; exact: boolean; isTest: boolean; inPath: boolean; defines: boolean };

function codeSearch(env: QueryEnv, words: string[]): { hits: FileHit[]; total: number; scanned: boolean } {
  const match = wordQuery(words);
  const candidates = (scanAll: boolean) =>
    scanAll || match === null
      ? env.db.query<{ path: string; is_test: number }, [number]>("SELECT path, is_test FROM code_files WHERE repo_id = ?").all(env.repoId)
      : env.db
          .query<{ path: string; is_test: number }, [string, number]>(
            "SELECT f.path, f.is_test FROM code_text t JOIN code_files f ON f.id = t.rowid WHERE code_text MATCH ? AND f.repo_id = ?",
          )
          .all(match, env.repoId);
  const first = confirm(env, candidates(false), words, MAX_CANDIDATES);
  // Word prefixes miss a term that starts inside a word ("etPath"): then read every file.
  if (first.hits.length > 0 || match === null) return { ...first, scanned: match === null };
  return { ...confirm(env, candidates(true), words, MAX_SCAN), scanned: true };
}

function confirm(
  env: QueryEnv,
  rows: { path: string; is_test: number }[],
  words: string[],
  cap: number,
): { hits: FileHit[]; total: number } {
  const lower = words.map((w) => w.toLowerCase());
  // Files that declare a symbol named like a term come first: the definition is usually what is wanted.
  const definers = new Set(
    env.db
      .query<{ path: string }, [number, string]>(
        `SELECT DISTINCT f.path FROM code_symbols s JOIN code_files f ON f.id = s.file_id
         WHERE f.repo_id = ? AND s.name COLLATE NOCASE IN (SELECT value FROM json_each(?))`,
      )
      .all(env.repoId, JSON.stringify(words))
      .map((r) => r.path),
  );
  const hits: FileHit[] = [];
  for (const row of rows.slice(0, cap)) {
    let text: string;
    try {
      text = readFileSync(join(env.root, row.path), "utf8");
    } catch {
      continue;
    }
    const whole = text.toLowerCase();
    if (!lower.every((w) => whole.includes(w))) continue; // the words were there, the exact text is not
    const lines = text.split(/\r?\n/);
    // Matching ignores case, but what was typed exactly (OPTIONS, not options) ranks first.
    const exact: number[] = [];
    const all: number[] = [];
    const some: number[] = [];
    lines.forEach((l, i) => {
      const ll = l.toLowerCase();
      const n = lower.filter((w) => ll.includes(w)).length;
      if (n === lower.length) (words.every((w) => l.includes(w)) ? exact : all).push(i + 1);
      else if (n > 0) some.push(i + 1);
    });
    const path = row.path.toLowerCase();
    hits.push({
      path: row.path,
      lines: exact.length + all.length > 0 ? [...exact, ...all] : some,
      full: exact.length + all.length > 0,
      exact: exact.length > 0,
      isTest: row.is_test === 1,
      inPath: lower.some((w) => path.includes(w)),
      defines: definers.has(row.path),
    });
  }
  // Sources before tests; then files with the exact text, that define the term, are named after it,
  // have a line with every term, the most matches.
  hits.sort(
    (a, b) =>
      Number(a.isTest) - Number(b.isTest) ||
      Number(b.exact) - Number(a.exact) ||
      Number(b.defines) - Number(a.defines) ||
      Number(b.inPath) - Number(a.inPath) ||
      Number(b.full) - Number(a.full) ||
      b.lines.length - a.lines.length ||
      (a.path < b.path ? -1 : 1),
  );
  return { hits, total: hits.length + Math.max(0, rows.length - cap) };
}

function symbolSearch(env: QueryEnv, word: string, limit: number): { symbols: SymbolMatch[]; total: number } {
  const like = `%${word.replace(/[%_\\]/g, "\\$&")}%`;
  const total = env.db
    .query<{ n: number }, [number, string]>(
      "SELECT count(*) AS n FROM code_symbols s JOIN code_files f ON f.id = s.file_id WHERE f.repo_id = ? AND s.name LIKE ? ESCAPE '\\'",
    )
    .get(env.repoId, like)!.n;
  type Row = {
    name: string;
    kind: string;
    path: string;
    line_start: number;
    line_end: number;
    exported: number;
    parent: string | null;
    signature: string | null;
  };
  const rows = env.db
    .query<Row, [number, string, string, string, number]>(
      `SELECT s.name, s.kind, f.path, s.line_start, s.line_end, s.exported, s.parent, s.signature
       FROM code_symbols s JOIN code_files f ON f.id = s.file_id
       WHERE f.repo_id = ? AND s.name LIKE ? ESCAPE '\\'
       ORDER BY s.name = ? COLLATE NOCASE DESC, s.name LIKE ? ESCAPE '\\' DESC, s.exported DESC, s.parent IS NULL DESC, f.is_test,
                length(s.name), f.path
       LIMIT ?`,
    )
    .all(env.repoId, like, word, `${word.replace(/[%_\\]/g, "\\$&")}%`, limit);
  const symbols = rows.map((r) => {
    const m: SymbolMatch = {
      name: r.name,
      kind: r.kind as SymbolKind,
      file: r.path,
      lines: [r.line_start, r.line_end],
      exported: r.exported === 1,
    };
    if (r.parent) m.parent = r.parent;
    if (r.signature) m.signature = r.signature;
    return m;
  });
  return { symbols, total };
}

export function querySearch(env: QueryEnv, opts: SearchOptions): Result<SearchResult> {
  const query = opts.query?.trim() ?? "";
  if (!query) return fail(KOTA_ERRORS.BAD_INPUT, "Empty query: pass text to find in code or a symbol name.");
  const output: SearchOutput = opts.output ?? "compact";
  if (!["paths", "compact", "snippet"].includes(output)) {
    return fail(KOTA_ERRORS.BAD_INPUT, `output must be paths, compact or snippet (got ${output}).`);
  }
  const limit = Math.max(1, Math.min(MAX_LIMIT, Math.floor(opts.limit ?? 20)));
  const scope = opts.scope && opts.scope.length > 0 ? opts.scope : ["code", "symbols"];
  const contextLines = Math.max(0, Math.min(10, Math.floor(opts.contextLines ?? 2)));
  const words = terms(query);
  const tips: string[] = [];
  const result: SearchResult = { query, output, paths: [], code: [], symbols: [], total: { files: 0, symbols: 0 } };

  if (scope.includes("code")) {
    {
      const { hits, total, scanned } = codeSearch(env, words);
      if (scanned && hits.length === 0) tips.push("No file contains that text. Try fewer or shorter terms, or search symbols by name.");
      result.total.files = total;
      if (output === "paths") result.paths = hits.slice(0, limit).map((h): PathMatch => ({ path: h.path, matches: h.lines.length }));
      else {
        const code: CodeMatch[] = [];
        for (const h of hits) {
          if (code.length >= limit) break;
          let text: string[];
          try {
            text = readFileSync(join(env.root, h.path), "utf8").split(/\r?\n/);
          } catch {
            continue;
          }
          if (text.at(-1) === "") text.pop(); // the final newline ends the last line, it starts none
          for (const line of h.lines.slice(0, Math.min(LINES_PER_FILE, limit - code.length))) {
            const m: CodeMatch = { path: h.path, line, context: (text[line - 1] ?? "").trim().slice(0, 240) };
            if (output === "snippet") {
              m.before = text.slice(Math.max(0, line - 1 - contextLines), line - 1);
              m.after = text.slice(line, line + contextLines);
            }
            code.push(m);
          }
        }
        result.code = code;
      }
      if (total > limit && output === "paths") tips.push(`${total} files match; showing ${limit}. Add a term to narrow it down.`);
    }
  }
  if (scope.includes("symbols")) {
    const word = [...words].sort((a, b) => b.length - a.length)[0]!;
    const { symbols, total } = symbolSearch(env, word, limit);
    result.symbols = symbols;
    result.total.symbols = total;
  }
  if (tips.length > 0) result.tips = tips;
  return { ok: true, ...result };
}
