/**
 * A stand-in for pi's process in the orphan test: starts the kota service with the kotadb backend,
 * indexes the repository (which starts KotaDB's file watcher), prints the watchdog's pid and waits
 * to be killed. Run: bun kotadb-parent.ts <kotadb cli.ts> <repo> <db path>
 */
import { defaultConfig } from "../../src/config.ts";
import { createKotaService } from "../../src/kota/service.ts";

const [cli, repo, dbPath] = process.argv.slice(2);
const base = defaultConfig();
const svc = createKotaService({
  dbPath: dbPath!,
  config: { kota: { ...base.kota, backend: "kotadb", command: process.execPath, args: [cli!, "--stdio", "--toolset", "core"] } },
});
const r = await svc.handle({ op: "index", repo: repo! });
if (!r.ok) {
  console.log(JSON.stringify({ error: r.message }));
  process.exit(1);
}
const s = await svc.handle({ op: "status", repo: repo! });
console.log(JSON.stringify({ pid: s.ok && s.op === "status" ? s.result.server?.pid : null }));
setInterval(() => {}, 60_000);
