/** How memories read: one line per event or summary line, with its id, kind, age and what replaced it. */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export function ago(ts: number, now: number): string {
  const d = now - ts;
  if (d < MINUTE) return "just now";
  if (d < HOUR) return `${Math.floor(d / MINUTE)}m ago`;
  if (d < DAY) return `${Math.floor(d / HOUR)}h ago`;
  if (d < 60 * DAY) return `${Math.floor(d / DAY)}d ago`;
  return new Date(ts).toISOString().slice(0, 10);
}

export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1).trimEnd()}…` : s);
export const oneLine = (s: string): string => s.replace(/\s+/g, " ").trim();

/** `e123 correction, 3d ago: text` (and `, replaced by e456` when a later event replaced it). */
export function eventLine(
  e: { id: number; kind: string; ts: number; content: string },
  now: number,
  replacedBy: number | null,
  max = 600,
): string {
  const replaced = replacedBy === null ? "" : `, replaced by e${replacedBy} (not current)`;
  return `e${e.id} ${e.kind}, ${ago(e.ts, now)}${replaced}: ${clip(oneLine(e.content), max)}`;
}

/** A summary line with a replaced event marked, or null to leave it out. */
export function summaryLine(line: string, replacedBy: number | null, mark: boolean): string | null {
  if (replacedBy === null) return line;
  return mark ? `${line} [replaced by e${replacedBy}; not current]` : null;
}
