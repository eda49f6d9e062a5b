/** What indexing one file yields, before it is written to the database. */
import type { SymbolKind, UsageKind } from "../../contract.ts";
import { packSite } from "../query/sites.ts";
import { type LineMap, lineMap } from "./source-lines.ts";

export type ImportKind = "import" | "type" | "reexport" | "export_all" | "dynamic" | "require";

export type ImportFact = { specifier: string; kind: ImportKind; line: number };

export type SymbolFact = {
  name: string;
  kind: SymbolKind;
  parent: string | null;
  lineStart: number;
  lineEnd: number;
  exported: boolean;
  signature: string;
};

/** `local` for a local binding; `importIdx` + `imported` for a name taken from another module ('*' = namespace). */
export type ExportFact = { name: string; local: string | null; importIdx: number | null; imported: string | null; line: number };

/** importIdx + name: the name exported by that import's module; importIdx null: a top-level name of this file. */
export type RefFact = {
  importIdx: number | null;
  name: string;
  owner: string | null;
  member: boolean;
  kind: UsageKind;
  line: number;
  col: number;
};

export type FileFacts = {
  symbols: SymbolFact[];
  imports: ImportFact[];
  exports: ExportFact[];
  refs: RefFact[];
  error: { line: number; message: string } | null;
};

/**
 * One code_refs row: every occurrence in a file of one target (an import's export, or a top-level
 * name, or a member by name), its sites packed as "line:col<kind>" (builtin/query/sites.ts).
 * [importIdx, name, owner, member, count, sites]
 */
export type RefGroup = [number | null, string, string | null, 0 | 1, number, string];

/** What is stored for a file: its facts with the references grouped per target (smaller to send and write). */
export type StoredFacts = Omit<FileFacts, "refs"> & { refs: RefGroup[] };

export function groupRefs(refs: readonly RefFact[]): RefGroup[] {
  // By name first: the few targets sharing a name are told apart by comparison, no key string is built per reference.
  const byName = new Map<string, RefGroup[]>();
  const groups: RefGroup[] = [];
  for (const r of refs) {
    const member = r.member ? 1 : 0;
    const site = packSite(r.line, r.col, r.kind);
    let same = byName.get(r.name);
    if (!same) {
      same = [];
      byName.set(r.name, same);
    }
    let g: RefGroup | undefined;
    for (const x of same) if (x[0] === r.importIdx && x[2] === r.owner && x[3] === member) g = x;
    if (g) {
      g[4]++;
      g[5] += `,${site}`;
    } else {
      const fresh: RefGroup = [r.importIdx, r.name, r.owner, member, 1, site];
      same.push(fresh);
      groups.push(fresh);
    }
  }
  return groups;
}

/** A binding visible at module level: an import, or a top-level declaration. */
export type ModuleBinding = { importIdx: number; imported: string } | { importIdx: null; imported: null };

export type FactsBuilder = FileFacts & {
  lines: LineMap;
  source: string;
  addImport(specifier: string, kind: ImportKind, offset: number): number;
  addRef(ref: Omit<RefFact, "line" | "col">, offset: number): void;
};

export function factsBuilder(source: string): FactsBuilder {
  const lines = lineMap(source);
  const b: FactsBuilder = {
    symbols: [],
    imports: [],
    exports: [],
    refs: [],
    error: null,
    lines,
    source,
    addImport(specifier, kind, offset) {
      b.imports.push({ specifier, kind, line: lines.line(offset) });
      return b.imports.length - 1;
    },
    addRef(ref, offset) {
      const line = lines.line(offset);
      b.refs.push({
        importIdx: ref.importIdx,
        name: ref.name,
        owner: ref.owner,
        member: ref.member,
        kind: ref.kind,
        line,
        col: offset - lines.start(line) + 1,
      });
    },
  };
  return b;
}
