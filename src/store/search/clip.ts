/**
 * A long row as shown: the text around the place that matched, cut to a width and marked `…`
 * where it was cut; a short line keeps its head (a location, a name) before a cut place.
 */
import { LONG_LINE } from "./scan.ts";

/** A line's head (its location, its name) is kept before a cut place on a line up to LONG_LINE. */
const HEAD = 60;

/** The text around position `at`, at most `max` characters, marked where it was cut. */
export function clipAround(text: string, at: number, max: number, end = at, head = true): string {
  const t = text.replace(/\r$/, "");
  if (t.length <= max) return t;
  if (head && t.length <= LONG_LINE && at > max / 2) {
    const rest = clipAround(t.slice(HEAD), at - HEAD, max - HEAD, end - HEAD, false);
    return `${t.slice(0, HEAD)}${rest.startsWith("…") ? "" : "…"}${rest}`;
  }
  // From the line's start when the place is near it (a location, a name), else from a little
  // before the place, and well past its end (a key's value follows it).
  let start = at < max / 2 ? 0 : at - Math.floor(max / 4);
  if (end + max / 4 > start + max) start = Math.min(at, Math.floor(end + max / 4 - max));
  start = Math.max(0, Math.min(start, t.length - max));
  return `${start > 0 ? "…" : ""}${t.slice(start, start + max)}${start + max < t.length ? "…" : ""}`;
}
