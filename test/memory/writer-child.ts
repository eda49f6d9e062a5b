/**
 * A second process for the concurrency test: adds `count` events (one request each, like pi
 * captures) or one spool take, to the memory in the database file given.
 *
 *   bun writer-child.ts DB SESSION COUNT      adds COUNT events in session SESSION
 *   bun writer-child.ts DB --take             takes the spool in (a stats request)
 */
import { defaultConfig } from "../../src/config.ts";
import { createMemoryService } from "../../src/memory/service.ts";
import { openMemoryDb, PROJECT, realCount } from "./helpers.ts";

const [path, session, count] = process.argv.slice(2) as [string, string, string];
const db = openMemoryDb(path);
const config = defaultConfig({ HOME: "/nonexistent" });
config.db = path;
const service = createMemoryService({ db, config, now: Date.now, count: realCount });
if (session === "--take") {
  const r = await service.handle({ type: "stats", project: PROJECT });
  if (!r.ok) throw new Error(r.message);
} else {
  for (let i = 0; i < Number(count); i++) {
    const kind = i % 7 === 0 ? "correction" : "prompt";
    const text =
      kind === "correction"
        ? `no, the ${session} worker ${i} runs on port ${9000 + i}, not ${8000 + i}`
        : `${session} event ${i}: the ${session} worker ${i} runs on port ${8000 + i}.`;
    const r = await service.handle({ type: "add", project: PROJECT, session, kind, text });
    if (!r.ok) throw new Error(`${session} ${i}: ${r.message}`);
  }
}
db.close();
process.stdout.write("done\n");
