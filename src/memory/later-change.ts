/**
 * A later statement that changes what an earlier one said, though it holds too little of the
 * query to pass the gate itself: "notice mail goes via Postmark now ... Mailgun client deleted"
 * after "patron notices go out through Mailgun", asked "which email provider delivers the patron
 * notices". The two speak of the same thing when they share a word of the query and two or more
 * words besides (the old tool's name, the setting's name): what the query found in the earlier
 * statement is what the later one changed. It is shown with the earlier one, right above it.
 */
import { statementOf, tokenKeys } from "./classify.ts";
import { ABOVE, units } from "./conflicts.ts";
import { familyKey } from "./morphology.ts";
import type { QueryGroup } from "./query.ts";
import { lineBody } from "./summary-line.ts";
import type { Hit, Unit } from "./units.ts";

/** Words besides the query's that the later and the earlier statement share, at least. */
const SHARED = 2;
/** ... and at most this share of the later one's words besides the query's: past it, the later one says the same again. */
const REPEAT = 0.5;

/** The later statements shown (their scores raised above the earlier ones'). */
export function laterChanges(hits: Hit[], passes: (u: Unit) => boolean, groups: QueryGroup[]): Set<Unit> {
  const out = new Set<Unit>();
  const earlier = units(hits).filter((u) => u.event !== null && u.replacedBy === null && (u.claim || u.record) && passes(u));
  if (earlier.length === 0) return out;
  const asked = new Set(groups.flatMap((g) => g.forms.map((f) => familyKey(f.word))));
  const keysOf = new Map<Unit, ReadonlySet<string>>();
  for (const h of hits) {
    if (h.type !== "event" || h.unit.replacedBy !== null || passes(h.unit)) continue;
    if (h.row.kind !== "correction" && !statementOf(h.row.content, h.row.kind).changes) continue;
    const own = [...tokenKeys(h.row.content)].filter((k) => !asked.has(k));
    for (const older of earlier) {
      if (older.order >= h.unit.order || ![...h.unit.match.groups.keys()].some((g) => older.match.groups.has(g))) continue;
      let theirs = keysOf.get(older);
      if (!theirs) {
        theirs = tokenKeys(lineBody(older.text));
        keysOf.set(older, theirs);
      }
      const seen = theirs;
      const shared = own.filter((k) => seen.has(k)).length;
      // Most of its words said before: the same chatter again ("adjusted the X page, spacing is fine now"), not a change.
      if (shared >= SHARED && shared <= REPEAT * own.length) {
        out.add(h.unit);
        h.unit.score = Math.max(h.unit.score, older.score * ABOVE);
      }
    }
  }
  return out;
}
