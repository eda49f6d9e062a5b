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
export type RefTarget = {
  importIdx: number | null;
  name: string;
  owner: string | null;
  member: boolean;
  kind: UsageKind;
};

/**
 * One code_refs row: every occurrence in a file of one target (an import's export, or a top-level
 * name, or a member by name), its sites packed as "line:col<kind>" (builtin/query/sites.ts).
 * [importIdx, name, owner, member, count, sites]
 */
export type RefGroup = [number | null, string, string | null, 0 | 1, number, string];

/** A file's facts as stored: its references grouped per target (smaller to send and write). */
export type FileFacts = {
  symbols: SymbolFact[];
  imports: ImportFact[];
  exports: ExportFact[];
  refs: RefGroup[];
  error: { line: number; message: string } | null;
};

export type StoredFacts = FileFacts;

/** A binding visible at module level: an import, or a top-level declaration. */
export type ModuleBinding = { importIdx: number; imported: string } | { importIdx: null; imported: null };

export type FactsBuilder = FileFacts & {
  lines: LineMap;
  source: string;
  addImport(specifier: string, kind: ImportKind, offset: number): number;
  /** Adds one occurrence of a target at `offset`, to the group of that target (made at its first occurrence). */
  addRef(ref: RefTarget, offset: number): void;
};

export function factsBuilder(source: string): FactsBuilder {
  const lines = lineMap(source);
  // Groups by name first: the few targets sharing a name are told apart by comparison, no key string
  // is built per reference. Grouped as they are found: no object per reference, no second pass.
  const byName = new Map<string, RefGroup[]>();
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
      const site = packSite(line, offset - lines.start(line) + 1, ref.kind);
      const member = ref.member ? 1 : 0;
      let same = byName.get(ref.name);
      if (!same) {
        same = [];
        byName.set(ref.name, same);
      }
      for (const g of same)
        if (g[0] === ref.importIdx && g[2] === ref.owner && g[3] === member) {
          g[4]++;
          g[5] += `,${site}`;
          return;
        }
      const fresh: RefGroup = [ref.importIdx, ref.name, ref.owner, member, 1, site];
      same.push(fresh);
      b.refs.push(fresh);
    },
  };
  return b;
}
