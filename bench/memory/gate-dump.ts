/**
 * Dumps, per question of a memory evaluation set, the ranked hits a search would choose its five
 * from (up to 50, each unit with the query words it holds, their weights, its kind and whether it
 * holds the answer, a stale value or a planted statement, and whether the gate passed it or it is
 * kept beside a replaced statement that passed), for trying gate rules offline:
 *
 *   bun bench/memory/gate-dump.ts /work/blind/memory-6 > /tmp/dump-6.json
 */
import { resolve } from "node:path";
import { candidates } from "../../src/memory/candidates.ts";
import { type GateContext, relevant } from "../../src/memory/gate.ts";
import { aboutQuery } from "../../src/memory/holds-now.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { rankedHits } from "../../src/memory/search.ts";
import type { Unit } from "../../src/memory/units.ts";
import { inProcessBackend } from "./eval-set.ts";
import { replay } from "./replay.ts";
import { loadSet, norm } from "./sets.ts";

const dir = resolve(process.argv[2]!);
const set = loadSet(dir);
const backend = inProcessBackend();
const out: unknown[] = [];
for await (const { p, q, r, deps, pid } of replay(set, backend)) {
  const db = backend.db!;
  const groups = queryGroups(q.query).slice(0, 8);
  const cands = candidates(db, "events", groups, { projectId: pid, single: deps.registry.single(), keep: 60 });
  // Which units the gate itself passed (the others are kept beside a replaced statement that passed).
  const passed = new Set<Unit>();
  const gate = (c: GateContext) => {
    const pass = relevant(c);
    return (u: Unit) => {
      const ok = pass(u);
      if (ok) passed.add(u);
      return ok;
    };
  };
  const ranked = rankedHits(deps, pid, q.query, 50, undefined, gate);
  const unitOf = (u: Unit, kind: string) => {
    const t = norm(u.text);
    return {
      event: u.event,
      kind,
      text: t.slice(0, 200),
      score: u.score,
      held: u.match.held,
      groups: [...u.match.groups.keys()],
      record: u.record,
      about: aboutQuery(u, groups),
      passed: passed.has(u),
      claim: u.claim,
      replacedBy: u.replacedBy,
      answer: q.answer.some((a) => t.includes(a)),
      stale: q.stale.some((s) => t.includes(s)),
      fact: p.facts.some((f) => t.includes(f)),
    };
  };
  out.push({
    set: set.name,
    project: p.name,
    id: q.id,
    kind: q.kind,
    query: q.query,
    result: r,
    nGroups: groups.length,
    unknown: cands.unknown,
    groups: cands.groups.map((g) => ({ group: g.group, word: g.word, df: g.df, rows: g.rows, idf: g.idf })),
    hits: ranked.map((h) =>
      h.type === "event"
        ? { type: "event", score: h.unit.score, units: [unitOf(h.unit, h.row.kind)] }
        : { type: "summary", score: h.score, units: h.lines.map((l) => unitOf(l, /^- e\d+ (\w+)/.exec(l.text)?.[1] ?? "")) },
    ),
  });
}
backend.close();
console.log(JSON.stringify(out));
