import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import schemaSql from "../../src/db/migrations/004-code-index.sql" with { type: "text" };
import { immediate, openDatabase } from "../../src/db/open.ts";
import type { StoredFacts } from "../../src/kota/builtin/parse/facts.ts";
import { createCodeStore } from "../../src/kota/builtin/store.ts";
import { cleanupTempDirs, tempDir } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

/** A file with more symbols and exports than one statement inserts (several statements, a short last one). */
function manyFacts(symbols: number, exports: number, tag: string): StoredFacts {
  return {
    symbols: Array.from({ length: symbols }, (_, i) => ({
      name: `${tag}${i}`,
      kind: i % 2 ? "function" : "variable",
      parent: i % 3 ? null : "Owner",
      lineStart: i + 1,
      lineEnd: i + 2,
      exported: i % 4 === 0,
      signature: `sig ${tag}${i}`,
    })),
    imports: [
      { specifier: "./a", kind: "import", line: 1 },
      { specifier: "./b", kind: "reexport", line: 2 },
    ],
    exports: Array.from({ length: exports }, (_, i) => ({
      name: `e${tag}${i}`,
      local: i % 2 ? null : `l${i}`,
      importIdx: i % 2 ? (i % 4 === 1 ? 0 : 1) : null,
      imported: i % 2 ? `x${i}` : null,
      line: i + 1,
    })),
    refs: [],
    error: null,
  };
}

describe("code store", () => {
  test("stores every symbol and export of a file in order, however many statements that takes, and replaces them", () => {
    const db = openDatabase(join(tempDir("kota-db-"), "sidecar.db"), { migrations: [schemaSql] });
    const store = createCodeStore(db);
    const repo = store.ensureRepo("/r");
    const file = { path: "src/m.ts", size: 1, mtimeMs: 1, hash: "h", isTest: false };
    const symbolsOf = (id: number) =>
      db
        .query("SELECT name, kind, parent, line_start, line_end, exported, signature FROM code_symbols WHERE file_id = ? ORDER BY id")
        .all(id);
    const exportsOf = (id: number) =>
      db
        .query(
          "SELECT e.name, e.local, i.specifier, e.imported, e.line FROM code_exports e LEFT JOIN code_imports i ON i.id = e.import_id WHERE e.file_id = ? ORDER BY e.rowid",
        )
        .all(id);
    const expected = (f: StoredFacts) => ({
      symbols: f.symbols.map((s) => ({
        name: s.name,
        kind: s.kind,
        parent: s.parent,
        line_start: s.lineStart,
        line_end: s.lineEnd,
        exported: s.exported ? 1 : 0,
        signature: s.signature,
      })),
      exports: f.exports.map((e) => ({
        name: e.name,
        local: e.local,
        specifier: e.importIdx === null ? null : f.imports[e.importIdx]!.specifier,
        imported: e.imported,
        line: e.line,
      })),
    });
    for (const [symbols, exports, tag] of [
      [75, 41, "a"],
      [3, 0, "b"],
      [0, 64, "c"],
    ] as const) {
      const facts = manyFacts(symbols, exports, tag);
      const [id] = immediate(db, () => store.writeFiles(repo.id, [{ file, facts, body: "" }]));
      expect({ symbols: symbolsOf(id!), exports: exportsOf(id!) }).toEqual(expected(facts));
      expect(db.query("SELECT count(*) AS n FROM code_symbols").get()).toEqual({ n: symbols });
    }
    db.close();
  });
});
