/**
 * Where a set's misses and false recalls stand, counted (diagnose.ts explains one question at a
 * time). Each question is asked as the eval run asks it (replay.ts), then again with the gate
 * open (every candidate passes), so a miss is one of:
 *
 * - not-candidate: no answering event among the 60 candidates (the words differ: a synonym);
 * - gated: the gate rejects the answer; with the gate open it would rank in the top five or below;
 * - lost-even-open: gone with the gate open too (pruned as a repeat, or ranked below 50);
 * - ranked: it passes and ranks below five;
 * - replaced: it ranks in the top five but is marked replaced (a wrong supersession link).
 *
 * and a false recall: a planted statement in the top five that passes the gate by itself, or one
 * that came in another way (a reply read with its prompt, what replaced a passing statement).
 *
 *   bun bench/memory/misses.ts SET [SET ...] [--list]
 */
import { resolve } from "node:path";
import { candidates } from "../../src/memory/candidates.ts";
import { type GateContext, relevant } from "../../src/memory/gate.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { rankedHits } from "../../src/memory/search.ts";
import type { Hit, Unit } from "../../src/memory/units.ts";
import { inProcessBackend } from "./eval-set.ts";
import { replay } from "./replay.ts";
import { loadSet, norm } from "./sets.ts";

const args = process.argv.slice(2);
const list = args.includes("--list");
const counts = new Map<string, number>();
const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
const unitsOf = (h: Hit): Unit[] => (h.type === "event" ? [h.unit] : h.lines);

for (const dir of args.filter((a) => !a.startsWith("--"))) {
  const set = loadSet(resolve(dir));
  const backend = inProcessBackend();
  for await (const { p, q, r, deps, pid } of replay(set, backend)) {
    const missed = q.kind !== "absent" && !r.answered;
    if (!missed && !r.falseRecall) continue;
    let context: GateContext | undefined;
    const open = rankedHits(deps, pid, q.query, 50, undefined, (c) => {
      context = c;
      return () => true;
    });
    let what: string;
    if (missed) {
      const holds = (u: Unit) => q.answer.some((a) => norm(u.text).includes(a));
      const rankIn = (hits: Hit[]) => hits.findIndex((h) => unitsOf(h).some((u) => holds(u) && u.replacedBy === null));
      const groups = queryGroups(q.query).slice(0, 8);
      const found = candidates(backend.db!, "events", groups, { projectId: pid, single: deps.registry.single(), keep: 60 });
      const rows = backend
        .db!.query<{ id: number; content: string }, [number]>("SELECT id, content FROM memory_events WHERE project_id = ?")
        .all(pid);
      const answering = rows.filter((row) => q.answer.some((a) => norm(row.content).includes(a))).map((row) => row.id);
      const real = rankedHits(deps, pid, q.query, 50);
      const at = rankIn(real);
      const shownReplaced = real.slice(0, 5).some((h) => unitsOf(h).some((u) => holds(u) && u.replacedBy !== null));
      const openAt = rankIn(open);
      what = !answering.some((id) => found.ids.includes(id))
        ? "miss: not-candidate"
        : shownReplaced
          ? "miss: replaced"
          : at !== -1
            ? "miss: ranked below five"
            : openAt === -1
              ? "miss: lost-even-open"
              : openAt < 5
                ? "miss: gated (top five with the gate open)"
                : "miss: gated (below five with the gate open)";
    } else {
      const passes = relevant(context!);
      const planted = rankedHits(deps, pid, q.query, 5)
        .flatMap(unitsOf)
        .filter((u) => p.facts.some((f) => norm(u.text).includes(f)));
      what = planted.some(passes) ? "false recall: a planted statement passes by itself" : "false recall: came in another way";
    }
    count(what);
    if (list) console.log(`${set.name} ${q.id} [${q.kind}] ${what} | ${q.query}`);
  }
  backend.close();
}
for (const [what, n] of [...counts].sort()) console.log(`${String(n).padStart(4)}  ${what}`);
