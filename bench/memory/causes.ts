/**
 * The cause table of a set's recall misses, from diagnose.ts's report: for each missed fact or
 * correction (the answer not in the top five), where its first answering event stood: not a
 * candidate (shares no word form with the question), dropped by the "too thin" gate (chatter
 * below MIN_SHARE; a record whose subject is not a query word; a record about one, holding less
 * than RECORD_SHARE), or ranked below five. A corrected question whose answer is in the top five
 * with its stale statement above it is a stale, not a miss, and is counted apart.
 *
 *   bun bench/memory/diagnose.ts /work/blind/memory-9 > /tmp/diag-9.txt
 *   bun bench/memory/causes.ts /tmp/diag-9.txt [/tmp/diag-10.txt ...]
 */
import { readFileSync } from "node:fs";

export type Cause =
  | "not a candidate"
  | "gate: chatter below the share"
  | "gate: record, query word not its subject"
  | "gate: record about it, holds too little"
  | "gate: other"
  | "ranked below five"
  | "in the top five (stale above, or marked replaced)";

/** The cause of one diagnosed question, from its first "candidate" line. */
export function causeOf(line: string): Cause {
  if (/candidate #-/.test(line)) return "not a candidate";
  const final = /final #(\d+|-)/.exec(line)?.[1] ?? "-";
  if (final !== "-") return Number(final) > 5 ? "ranked below five" : "in the top five (stale above, or marked replaced)";
  if (/word not its subject/.test(line)) return "gate: record, query word not its subject";
  if (/holds too little/.test(line)) return "gate: record about it, holds too little";
  if (/thin\((known|asked)\)/.test(line) && /not a record/.test(line)) return "gate: chatter below the share";
  return "gate: other";
}

/** Per question id (MISS or STALE headings of diagnose.ts), its cause. */
export function causes(report: string): { id: string; query: string; cause: Cause }[] {
  const out: { id: string; query: string; cause: Cause }[] = [];
  let head: { id: string; query: string } | null = null;
  for (const line of report.split("\n")) {
    const h = /^=== (?:MISS|STALE) (\S+) \[\w+\] "(.*)"/.exec(line);
    if (h) {
      head = { id: h[1]!, query: h[2]! };
      continue;
    }
    if (line.startsWith("===")) head = null;
    if (head && /^\s+candidate #/.test(line)) {
      out.push({ ...head, cause: causeOf(line) });
      head = null;
    }
  }
  return out;
}

if (import.meta.main) {
  const rows = process.argv.slice(2).flatMap((f) => causes(readFileSync(f, "utf8")));
  const counts = new Map<Cause, string[]>();
  for (const r of rows) counts.set(r.cause, [...(counts.get(r.cause) ?? []), `${r.id} "${r.query}"`]);
  for (const [cause, ids] of [...counts].sort((a, b) => b[1].length - a[1].length)) {
    console.log(`${String(ids.length).padStart(3)}  ${cause}`);
    for (const id of ids) console.log(`       ${id}`);
  }
}
