/**
 * A statement shown only because an older one it replaced was a hit (search.ts prune: the two
 * stand or fall together) falls with it: when the older one is left out later (a thin summary
 * line far below the best hit, thin-lines.ts; a part below an open matter, open-matter.ts), the
 * newer one, which holds too little of the query on its own, goes too. Shown alone it is a
 * statement on the replaced one's subject, not an answer to the query.
 */
import { units } from "./conflicts.ts";
import type { Hit, Unit } from "./units.ts";

/** Events kept only beside replaced statements: each with the events of the older statements that passed. */
export type Partners = ReadonlyMap<Unit, readonly number[]>;

/**
 * The hits less the events kept only beside a replaced statement (`partners`) when none of the
 * hits shows that statement any more (as its event, or a summary line naming it) nor any other
 * statement the newer one replaced.
 */
export function withoutOrphans(hits: Hit[], partners: Partners): Hit[] {
  if (partners.size === 0) return hits;
  const shown = units(hits);
  const events = new Set(shown.flatMap((u) => (u.event === null ? [] : [u.event])));
  const replaced = new Set(shown.flatMap((u) => (u.replacedBy === null ? [] : [u.replacedBy])));
  return hits.filter((h) => {
    if (h.type !== "event") return true;
    const olders = partners.get(h.unit);
    return olders === undefined || replaced.has(h.row.id) || olders.some((e) => events.has(e));
  });
}
