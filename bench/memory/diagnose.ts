/**
 * Why a memory evaluation question is missed or falsely recalled: for each bad question of a set
 * (eval-set.ts, in-process), where the answering events stand. Per answering event: in the
 * candidates at all (and if not, which query words it shares none of), its place among the
 * candidates, its score and matched words, whether it passes the "too thin" gate, its final rank,
 * and what ranked above it. For a false recall: the planted hit, which words it matched and by
 * which weight it passed.
 *
 *   bun bench/memory/diagnose.ts /work/blind/memory-6 [--all]
 */
import { resolve } from "node:path";
import { candidates } from "../../src/memory/candidates.ts";
import { eventsById } from "../../src/memory/events.ts";
import { isRare, RECORD_SHARE } from "../../src/memory/gate.ts";
import { aboutQuery } from "../../src/memory/holds-now.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { rankedHits } from "../../src/memory/search.ts";
import { eventUnit, type Hit, type Unit } from "../../src/memory/units.ts";
import { inProcessBackend } from "./eval-set.ts";
import { replay } from "./replay.ts";
import { loadSet, norm } from "./sets.ts";

const args = process.argv.slice(2);
const dir = resolve(args.find((a) => !a.startsWith("--"))!);
const set = loadSet(dir);
const all = args.includes("--all");

const hitText = (h: Hit) =>
  h.type === "event"
    ? `e${h.row.id} ${h.row.kind} ${h.unit.score.toFixed(2)}: ${h.row.content}`
    : `s${h.row.id} ${h.score.toFixed(2)}: ${h.lines.map((l) => l.text).join(" | ")}`;
const clip = (s: string) => (s.length > 150 ? `${s.slice(0, 149)}…` : s).replace(/\n/g, " ");

// The projects are imported in the order, and up to the times, the eval run imports them (the
// weights of words depend on everything the database holds).
const backend = inProcessBackend();
for await (const { p, q, r, deps, pid } of replay(set, backend)) {
  if (!all && !((q.kind !== "absent" && !r.answered) || r.staleAbove || r.falseRecall)) continue;
  const db = backend.db!;
  const groups = queryGroups(q.query).slice(0, 8);
  const cands = candidates(db, "events", groups, { projectId: pid, single: deps.registry.single(), keep: 60 });
  const ranked = rankedHits(deps, pid, q.query, 50);
  const top5 = ranked.slice(0, Number(process.env.DIAG_TOP ?? 5));
  const what = r.falseRecall ? "FALSE" : r.staleAbove ? "STALE" : q.kind === "absent" ? "ok-absent" : r.answered ? "ok" : "MISS";
  console.log(`\n=== ${what} ${q.id} [${q.kind}] "${q.query}"`);
  console.log(
    `  groups: ${cands.groups.map((g) => `${g.word}{${g.forms.map((f) => f.word).join(",")}} df=${g.df} idf=${g.idf.toFixed(2)}`).join("; ")}; unknown ${cands.unknown}`,
  );
  const weights = cands.groups.map((g) => g.idf).sort((a, b) => a - b);
  const typical = weights[Math.floor(weights.length / 2)] ?? 0;
  const knownWeight = weights.reduce((a, b) => a + b, 0);
  const asked = knownWeight + cands.unknown * typical;
  const rareGroups = new Set(cands.groups.filter(isRare).map((g) => g.group));
  const gate = (m: { held: number; groups: Map<number, number> }) =>
    m.held < 0.4 * knownWeight
      ? "thin(known)"
      : m.held >= 0.4 * asked
        ? "pass(share)"
        : [...m.groups.keys()].some((g) => rareGroups.has(g))
          ? "pass(rare)"
          : "thin(asked)";
  // Why the record-about-its-subject rule (search.ts) did or did not let a thin hit through.
  const subjectRule = (u: Unit) =>
    !u.record
      ? "not a record"
      : !aboutQuery(u, groups)
        ? "record, word not its subject"
        : 3 * cands.groups.length < groups.length
          ? "record about it, query mostly unknown"
          : u.match.held >= RECORD_SHARE * knownWeight
            ? "record about it: passes (search.ts, RECORD_SHARE)"
            : "record about it, holds too little";
  const targets = q.kind === "absent" ? p.facts : q.answer;
  const rows = db
    .query<{ id: number }, [number]>("SELECT id FROM memory_events WHERE project_id = ? ORDER BY id")
    .all(pid)
    .map((x) => x.id);
  const holders = eventsById(deps, rows).filter((e) => targets.some((a) => norm(e.content).includes(a)));
  if (q.kind !== "absent") {
    for (const e of holders) {
      const unit = eventUnit(e, cands.groups, Date.now());
      const at = cands.ids.indexOf(e.id);
      const fin = ranked.findIndex((h) => (h.type === "event" ? h.row.id === e.id : h.lines.some((l) => l.event === e.id)));
      console.log(`  answer e${e.id} ${e.kind}: ${clip(e.content)}`);
      console.log(
        `    candidate #${at === -1 ? "-" : at + 1}; matched ${unit ? [...unit.match.groups.keys()].map((g) => groups[g]!.word).join(",") : "nothing"}; held ${unit ? `${unit.match.held.toFixed(2)}/${knownWeight.toFixed(2)} asked ${asked.toFixed(2)} ${gate(unit.match)} [${subjectRule(unit)}]` : "-"}; score ${unit ? unit.score.toFixed(2) : "-"}; final #${fin === -1 ? "-" : fin + 1}`,
      );
    }
    for (const [i, h] of top5.entries()) console.log(`    top${i + 1} ${clip(hitText(h))}`);
  } else {
    for (const [i, h] of top5.entries()) {
      const planted = (h.type === "event" ? [h.row.content] : h.lines.map((l) => l.text)).some((t) =>
        p.facts.some((f) => norm(t).includes(f)),
      );
      const m = h.type === "event" ? h.unit.match : h.lines[0]!.match;
      console.log(
        `    top${i + 1}${planted ? " PLANTED" : ""} matched ${[...m.groups.keys()].map((g) => groups[g]!.word).join(",")} held ${m.held.toFixed(2)}/${m.total.toFixed(2)} ${gate(m)} ${clip(hitText(h))}`,
      );
    }
  }
}
backend.close();
