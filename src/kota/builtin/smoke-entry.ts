/**
 * A tiny entry for proving the built-in index works inside `bun build --compile` (the native
 * parser embedded, parsing in the binary's own helper process): `kota-smoke <repo> [symbol]`
 * indexes into an in-memory database and prints the index result and the symbol's usages as JSON.
 * Used by test/kota/compiled.test.ts.
 */

import schemaSql from "../../db/migrations/004-code-index.sql" with { type: "text" };
import { openDatabase } from "../../db/open.ts";
import { helperRole, runHelper } from "../helper-entry.ts";
import { createBuiltinIndex } from "./backend.ts";

async function smoke(): Promise<number> {
  const [root, symbol] = process.argv.slice(2);
  if (!root) {
    console.error("usage: kota-smoke <repository> [symbol]");
    return 2;
  }
  const db = openDatabase(":memory:", { migrations: [schemaSql] });
  const kota = createBuiltinIndex({ db, root });
  const index = await kota.index();
  const usages = symbol ? await kota.usages({ symbol }) : null;
  console.log(JSON.stringify({ index, usages }));
  await kota.close();
  db.close();
  return 0;
}

const role = helperRole();
process.exit(await (role ? runHelper(role) : smoke()));
