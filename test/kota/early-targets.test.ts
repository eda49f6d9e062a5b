/**
 * A first index writes the warm resolver's answers while the parsers work: an answer goes in once
 * the file it names is stored, what needs no target (a package, a missing file) at once, and an
 * import that stays unresolved is left as it was stored.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { earlyTargets } from "../../src/kota/builtin/resolve/early-targets.ts";
import { warmResolver } from "../../src/kota/builtin/resolve/resolve-imports.ts";
import { cleanupTempDirs, ok, openIndex, writeRepo } from "./fixture-repo.ts";

afterAll(cleanupTempDirs);

describe("kota builtin: early import targets", () => {
  test("an answer is written once its file is stored; a package's at once; an unresolved one never", async () => {
    const { kota, db, root } = openIndex(
      writeRepo({
        "main.ts": [
          'import { b } from "./b";',
          'import { c } from "./c";',
          'import x from "left-pad";',
          'import { m } from "./missing";',
        ].join("\n"),
        "b.ts": "export const b = 1\n",
        "c.ts": "export const c = 2\n",
      }),
    );
    ok(await kota.index());
    // The rows as a first index stores them, before any answer.
    db.run("UPDATE code_imports SET target_id = NULL, status = 0");
    const idOf = (path: string) => db.query<{ id: number }, [string]>("SELECT id FROM code_files WHERE path = ?").get(path)!.id;
    const importOf = (spec: string) => db.query<{ id: number }, [string]>("SELECT id FROM code_imports WHERE specifier = ?").get(spec)!.id;
    const row = (spec: string) =>
      db
        .query<{ target_id: number | null; status: number }, [string]>("SELECT target_id, status FROM code_imports WHERE specifier = ?")
        .get(spec);

    const warm = warmResolver(root, ["main.ts", "b.ts", "c.ts"], [], new Map());
    const early = earlyTargets(db, warm);
    early.stored(["b.ts"], [idOf("b.ts")]);
    for (const spec of ["./b", "./c", "left-pad", "./missing"]) {
      warm.warmUp("main.ts", spec, "import");
      early.answered(importOf(spec), "main.ts", spec, "import");
    }
    early.write();
    expect(row("./b")).toEqual({ target_id: idOf("b.ts"), status: 1 });
    expect(row("./c")).toEqual({ target_id: null, status: 0 }); // c.ts not stored yet
    expect(row("left-pad")).toEqual({ target_id: null, status: 2 });
    expect(row("./missing")).toEqual({ target_id: null, status: 0 });

    expect(early.unwritten()).toEqual([importOf("./c")]);

    early.stored(["c.ts"], [idOf("c.ts")]);
    expect(early.unwritten()).toEqual([importOf("./c")]); // ready, not written yet
    early.write();
    expect(row("./c")).toEqual({ target_id: idOf("c.ts"), status: 1 });
    expect(early.unwritten()).toEqual([]);
  });

  test("an import the warm resolver did not answer is left to the pass that ends the run", async () => {
    const { kota, db, root } = openIndex(writeRepo({ "a.ts": 'import { b } from "./b";\n', "b.ts": "export const b = 1\n" }));
    ok(await kota.index());
    db.run("UPDATE code_imports SET target_id = NULL, status = 0");
    const early = earlyTargets(db, warmResolver(root, ["a.ts", "b.ts"], [], new Map()));
    const id = db.query<{ id: number }, []>("SELECT id FROM code_imports").get()!.id;
    early.stored(["b.ts"], [db.query<{ id: number }, []>("SELECT id FROM code_files WHERE path = 'b.ts'").get()!.id]);
    early.answered(id, "a.ts", "./b", "import");
    early.write();
    expect(db.query("SELECT target_id, status FROM code_imports").get()).toEqual({ target_id: null, status: 0 });
  });
});
