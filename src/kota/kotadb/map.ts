/**
 * KotaDB's tool answers (pretty JSON) turned into the contract's shapes. Only what the contract
 * carries is kept; KotaDB's guesses are dropped (test files it recommends that do not exist,
 * search tips about scopes we never send).
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type {
  AffectedFile,
  CodeMatch,
  DepsLevels,
  ImpactResult,
  PathMatch,
  SymbolKind,
  SymbolMatch,
  Usage,
  UsageKind,
} from "../contract.ts";

type Json = Record<string, unknown>;
const obj = (v: unknown): Json => (v && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {});
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === "string" ? v : "");
const num = (v: unknown): number => (typeof v === "number" && Number.isFinite(v) ? v : 0);
const strings = (v: unknown): string[] => arr(v).filter((x): x is string => typeof x === "string");

const KINDS: Record<string, SymbolKind> = {
  function: "function",
  class: "class",
  interface: "interface",
  type: "type",
  enum: "enum",
  method: "method",
  property: "property",
  constant: "const",
  variable: "variable",
  module: "namespace",
  namespace: "namespace",
  enum_member: "property",
};

const USAGE_KINDS: Record<string, UsageKind> = {
  import: "import",
  call: "call",
  property_access: "property",
  type_reference: "type",
  re_export: "reexport",
  export_all: "reexport",
  dynamic_import: "import",
  new: "new",
  jsx: "jsx",
};

export function symbolKind(kind: string): SymbolKind {
  return KINDS[kind] ?? "variable";
}

/** `{direct, indirect: {depth_2: [...]}}` -> `{direct, indirect: {"2": [...]}}`, sorted. */
export function depsLevels(v: unknown): DepsLevels {
  const o = obj(v);
  const indirect: Record<string, string[]> = {};
  for (const [key, list] of Object.entries(obj(o.indirect))) {
    const depth = key.replace(/^depth_/, "");
    const paths = strings(list).sort();
    if (paths.length > 0) indirect[depth] = paths;
  }
  return { direct: strings(o.direct).sort(), indirect };
}

export function pathMatches(json: unknown): PathMatch[] {
  return arr(obj(obj(json).results).code).map((c) => {
    const o = obj(c);
    return typeof c === "string" ? { path: c, matches: 1 } : { path: str(o.path), matches: num(o.match_count) || 1 };
  });
}

/** Snippet results: one entry per matching line, at most `perFile` per file and `limit` in all. */
export function codeMatches(json: unknown, opts: { limit: number; perFile: number; snippet: boolean }): CodeMatch[] {
  const out: CodeMatch[] = [];
  for (const file of arr(obj(obj(json).results).code)) {
    const f = obj(file);
    for (const m of arr(f.matches).slice(0, opts.perFile)) {
      if (out.length >= opts.limit) return out;
      const o = obj(m);
      const match: CodeMatch = { path: str(f.path), line: num(o.line), context: str(o.content).trim().slice(0, 240) };
      if (opts.snippet) {
        match.before = strings(o.context_before);
        match.after = strings(o.context_after);
      }
      out.push(match);
    }
  }
  return out;
}

export function symbolMatches(json: unknown): SymbolMatch[] {
  return arr(obj(obj(json).results).symbols).map((s) => {
    const o = obj(s);
    const loc = obj(o.location);
    const m: SymbolMatch = {
      name: str(o.name),
      kind: symbolKind(str(o.kind)),
      file: str(loc.file) || str(o.file),
      lines: [num(loc.line_start), num(loc.line_end)],
      exported: o.is_exported === true,
    };
    if (typeof o.signature === "string" && o.signature) m.signature = o.signature;
    return m;
  });
}

/** `"src/a.ts:15"` (or "unknown") -> definitions. */
export function definedIn(v: unknown): { file: string; line: number }[] {
  const out: { file: string; line: number }[] = [];
  for (const d of Array.isArray(v) ? v : [v]) {
    const m = /^(.*):(\d+)$/.exec(str(d));
    if (m) out.push({ file: m[1]!, line: Number(m[2]) });
  }
  return out;
}

export function usages(json: unknown): Usage[] {
  return arr(obj(json).usages).map((u) => {
    const o = obj(u);
    return {
      file: str(o.file),
      line: num(o.line),
      // KotaDB counts columns from 0; the contract from 1.
      column: num(o.column) + 1,
      kind: USAGE_KINDS[str(o.usage_type)] ?? "value",
      context: str(o.context).trim().slice(0, 200),
    };
  });
}

function text(v: unknown): string {
  if (typeof v === "string") return v;
  const o = obj(v);
  return str(o.message) || str(o.description) || JSON.stringify(v);
}

/** analyze_change_impact -> the impact shape; test files are kept only when they exist. */
export function impact(json: unknown, root: string, limit: number): Omit<ImpactResult, "summary"> & { summary: string } {
  const o = obj(json);
  const affected: AffectedFile[] = arr(o.affected_files).map((a) => {
    const x = obj(a);
    return { file: str(x.path), why: str(x.reason), direct: num(x.direct_dependents_count), indirect: num(x.indirect_dependents_count) };
  });
  const tests = [...new Set(strings(obj(o.test_scope).test_files))].filter((t) => existsSync(join(root, t)));
  const risk = str(o.risk_level).toLowerCase();
  const warnings = [...arr(o.architectural_warnings), ...arr(o.conflicts)].map(text);
  return {
    risk: risk === "high" || risk === "medium" ? risk : "low",
    summary: str(o.summary),
    affected: affected.slice(0, limit),
    tests: tests.slice(0, limit),
    warnings,
    counts: {
      affected: affected.length,
      direct: affected.filter((a) => /^directly/i.test(a.why)).length,
      indirect: affected.filter((a) => /^indirectly/i.test(a.why)).length,
      tests: tests.length,
    },
  };
}

/** A KotaDB "not found" message inside an otherwise normal answer. */
export function notFound(json: unknown): "repository" | "file" | null {
  const message = str(obj(json).message);
  if (/^Repository not found|No repositories found/i.test(message)) return "repository";
  if (/^File not found/i.test(message)) return "file";
  return null;
}

export { arr, num, obj, str, strings };
