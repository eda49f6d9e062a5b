// Holds the database's write lock (an open write transaction with changes in it) for a while: a busy writer.
import { Database } from "bun:sqlite";

const [path, ms] = process.argv.slice(2) as [string, string];
const db = new Database(path);
db.exec("PRAGMA busy_timeout = 5000");
db.exec("BEGIN IMMEDIATE");
db.exec("INSERT INTO meta (key, value) VALUES ('web-test-lock', 'held') ON CONFLICT (key) DO UPDATE SET value = 'held'");
process.stdout.write("locked\n");
await Bun.sleep(Number(ms));
db.exec("ROLLBACK");
db.close();
