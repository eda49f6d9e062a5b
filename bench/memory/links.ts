/**
 * How well corrections are linked to what they replace, on evaluation sets. The planted
 * statements come from facts.json records ({id, role, contains, ts, supersededBy}; the role of
 * a replaced statement is `superseded` in some sets and `stale` in others, that of what replaces
 * it `correction`), or, when facts.json is a list of strings, from the questions: a corrected
 * question's stale value names the replaced statement, its answer the correction, and every other
 * planted string is a fact. The projects are imported in-process into one memory, in order, as
 * eval-set.ts does (a project's links depend on the events before it: word rarity is read from
 * them), then
 *
 * - superseded linked: a superseded statement's newest replacement (or a direct one) is the
 *   event of the correction that replaces it;
 * - stray: a superseded statement also replaced by an event that is not its correction;
 * - facts wrongly replaced: a planted fact or correction that some later event replaced.
 *
 * With --all, every link recorded is listed (old <= new), to read the links no planted statement shows.
 *
 *   bun bench/memory/links.ts bench/memory/sets/memory-1 [more sets] [--verbose] [--all]
 */
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { inProcessBackend } from "./eval-set.ts";
import { loadSet, norm, type SetProject } from "./sets.ts";

type Fact = { id: string; role: string; contains: string; ts: number | null; supersededBy: string | null };
type Row = { id: number; ts: number; content: string };

/** Roles as the sets spell them: `stale` (memory-16) is a superseded statement. */
const roleOf = (role: string) => (role === "stale" ? "superseded" : role);

/** The planted statements of a project with their roles, from facts.json records or the questions. */
function plantedOf(dir: string, p: SetProject): Fact[] {
  const path = [join(dir, "projects", p.name, "facts.json"), join(dir, p.name, "facts.json")].find(existsSync);
  const raw = path ? (JSON.parse(readFileSync(path, "utf8")) as unknown[]) : [];
  const records = raw.filter((f): f is Fact => typeof f === "object" && f !== null && "role" in f);
  if (records.length > 0) return records.map((f) => ({ ...f, role: roleOf(f.role) }));
  // Strings: roles from the corrected questions (the planted string holding the stale value, and
  // another holding the answer).
  const out: Fact[] = [];
  const used = new Set<string>();
  for (const q of p.questions.filter((q) => q.kind === "corrected" && q.stale.length > 0)) {
    const stale = p.facts.find((f) => q.stale.some((s) => f.includes(s) || s.includes(f))) ?? q.stale[0]!;
    const fix = p.facts.find((f) => f !== stale && q.answer.some((a) => f.includes(a))) ?? q.answer[0];
    if (!fix) continue;
    out.push({ id: `${q.id}:stale`, role: "superseded", contains: stale, ts: null, supersededBy: `${q.id}:fix` });
    out.push({ id: `${q.id}:fix`, role: "correction", contains: fix, ts: null, supersededBy: null });
    used.add(stale);
    used.add(fix);
  }
  for (const [i, f] of p.facts.filter((f) => !used.has(f)).entries())
    out.push({ id: `fact${i + 1}`, role: "fact", contains: f, ts: null, supersededBy: null });
  return out;
}

const args = process.argv.slice(2);
for (const dir of args.filter((a) => !a.startsWith("--"))) {
  const set = loadSet(resolve(dir));
  let linked = 0;
  let superseded = 0;
  let stray = 0;
  let wrong = 0;
  let facts = 0;
  let links = 0;
  const notes: string[] = [];
  const backend = inProcessBackend();
  const db = backend.db!;
  try {
    for (const p of set.projects) {
      const planted = plantedOf(resolve(dir), p);
      const before = db.query<{ n: number | null }, []>("SELECT max(id) AS n FROM memory_events").get()?.n ?? 0;
      await backend.import(`/eval/${set.name}/${p.name}`, p.events);
      if (planted.length === 0) continue;
      {
        const rows = db.query<Row, [number]>("SELECT id, ts, content FROM memory_events WHERE id > ? ORDER BY id").all(before);
        links += db.query<{ n: number }, [number]>("SELECT count(*) AS n FROM memory_supersessions WHERE new_id > ?").get(before)!.n;
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
        const text = (id: number) =>
          `e${id} ${
            rows
              .find((r) => r.id === id)
              ?.content.slice(0, 80)
              .replace(/\s+/g, " ") ?? ""
          }`;
        if (args.includes("--all"))
          for (const l of db
            .query<{ old_id: number; new_id: number }, [number]>(
              "SELECT old_id, new_id FROM memory_supersessions WHERE new_id > ? ORDER BY new_id, old_id",
            )
            .all(before))
            notes.push(`  link ${p.name}: ${text(l.old_id)} <= ${text(l.new_id)}`);
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
            const others = replaced.filter((r) => r !== want);
            if (others.length > 0) {
              stray++;
              notes.push(`  stray ${p.name}/${f.id}: "${f.contains}" also by ${others.map(text).join(" ; ")}`);
            }
          } else {
            facts++;
            if (replaced.length > 0) {
              wrong++;
              notes.push(`  wrongly replaced ${p.name}/${f.id} (${f.role}): "${f.contains}" by ${replaced.map(text).join(" ; ")}`);
            }
          }
        }
      }
    }
  } finally {
    backend.close();
  }
  console.log(
    `${set.name}: superseded linked ${linked}/${superseded}; stray links ${stray}; facts wrongly replaced ${wrong}/${facts}; links recorded ${links}`,
  );
  if (args.includes("--verbose")) for (const n of notes) console.log(n);
}
