/**
 * A later statement that says a value is gone or replaced ("we ditched X, it's Y now", "no more
 * X") ranks right above every earlier hit that names that value, whatever its kind: a command
 * run with X, an answer about X, a file list under X's directory. Those are evidence of the old
 * state; what the query found in them is what the later statement changed. Unlike changeFirst
 * (search.ts) no shared word of the query is needed and a rarer word of the query held only by
 * the earlier hit does not keep it on top: naming the rejected value already says which state it
 * belongs to.
 */
import { statementOf, tokenKeys } from "./classify.ts";
import { ABOVE, units } from "./conflicts.ts";
import { lineBody } from "./summary-line.ts";
import type { Hit, Unit } from "./units.ts";

/** The event kind a summary line names ("- e12 correction: ..."). */
const lineKind = (text: string) => /^- e\d+ (\w+)/.exec(text)?.[1] ?? "";

export function aboveRejected(hits: Hit[]): void {
  const all = units(hits);
  const kinds = new Map<Unit, string>();
  for (const h of hits) {
    if (h.type === "event") kinds.set(h.unit, h.row.kind);
    else for (const l of h.lines) kinds.set(l, lineKind(l.text));
  }
  for (const newer of all) {
    if (newer.event === null || newer.replacedBy !== null || !(newer.claim || newer.record)) continue;
    const said = statementOf(lineBody(newer.text), kinds.get(newer) ?? "");
    if (!said.changes || said.removed.size === 0) continue;
    for (const older of all) {
      if (older.event === null || older.order >= newer.order) continue;
      const keys = tokenKeys(lineBody(older.text));
      if ([...said.removed].some((r) => keys.has(r))) newer.score = Math.max(newer.score, older.score * ABOVE);
    }
  }
}
