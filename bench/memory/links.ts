/**
 * How well corrections are linked to what they replace, on evaluation sets whose facts.json
 * records the planted statements ({id, role: fact|superseded|correction, contains, ts,
 * supersededBy}): each project's whole history imported in-process, then
 *
 * - superseded linked: a superseded statement's newest replacement (or a direct one) is the
 *   event of the correction that replaces it;
 * - facts wrongly replaced: a planted fact or correction that some later event replaced.
 *
 *   bun bench/memory/links.ts bench/memory/sets/memory-1 [more sets] [--verbose]
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { inProcessBackend } from "./eval-set.ts";
import { loadSet, norm } from "./sets.ts";

type Fact = { id: string; role: string; contains: string; ts: number | null; supersededBy: string | null };
type Row = { id: number; ts: number; content: string };

const args = process.argv.slice(2);
for (const dir of args.filter((a) => !a.startsWith("--"))) {
  const set = loadSet(resolve(dir));
  let linked = 0;
  let superseded = 0;
  let wrong = 0;
  let facts = 0;
  let links = 0;
  const notes: string[] = [];
  for (const p of set.projects) {
    const path = [join(resolve(dir), "projects", p.name, "facts.json"), join(resolve(dir), p.name, "facts.json")].find(existsSync);
    if (!path) continue;
    const planted = (JSON.parse(readFileSync(path, "utf8")) as Fact[]).filter((f) => typeof f === "object" && f.role);
    const backend = inProcessBackend();
    try {
      await backend.import(`/links/${p.name}`, p.events);
      const db = backend.db!;
      links += db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_supersessions").get()!.n;
      const rows = db.query<Row, []>("SELECT id, ts, content FROM memory_events ORDER BY id").all();
      const idOf = (f: Fact) =>
        (
          rows.find((r) => r.ts === f.ts && norm(r.content).includes(norm(f.contains))) ??
          rows.find((r) => norm(r.content).includes(norm(f.contains)))
        )?.id ?? -1;
      const next = db.query<{ n: number | null }, [number]>("SELECT max(new_id) AS n FROM memory_supersessions WHERE old_id = ?");
      const direct = db.query<{ new_id: number }, [number]>("SELECT new_id FROM memory_supersessions WHERE old_id = ?");
      const newest = (id: number) => {
        let current = id;
        for (let hops = 0; hops < 20; hops++) {
          const n = next.get(current)?.n ?? null;
          if (n === null) break;
          current = n;
        }
        return current;
      };
      const text = (id: number) => rows.find((r) => r.id === id)?.content.slice(0, 80) ?? "";
      const byId = new Map(planted.map((f) => [f.id, f]));
      for (const f of planted) {
        const id = idOf(f);
        const replaced = direct.all(id).map((r) => r.new_id);
        if (f.role === "superseded") {
          superseded++;
          const by = f.supersededBy ? byId.get(f.supersededBy) : undefined;
          const want = by ? idOf(by) : -1;
          if (newest(id) === want || replaced.includes(want)) linked++;
          else notes.push(`  unlinked ${p.name}/${f.id}: "${f.contains}" -> ${text(want)}`);
        } else {
          facts++;
          if (replaced.length > 0) {
            wrong++;
            notes.push(`  wrongly replaced ${p.name}/${f.id}: "${f.contains}" by ${replaced.map(text).join(" ; ")}`);
          }
        }
      }
    } finally {
      backend.close();
    }
  }
  console.log(`${set.name}: superseded linked ${linked}/${superseded}; facts wrongly replaced ${wrong}/${facts}; links recorded ${links}`);
  if (args.includes("--verbose")) for (const n of notes) console.log(n);
}
