/**
 * A place on a long JSON row as shown: the stretch around it and the fields that name its
 * object (json-line.ts), each whole and in the row's order, `…` where the row is left out.
 */

/** A place on a long JSON row shown with the fields that name its object: at most this wide. */
const FIELDS_WIDTH = 1000;
/** Stretches this close are shown as one. */
const FIELDS_GAP = 24;

/**
 * The place on a long row and the stretches that name its object (its own fields, a parent's
 * name), each whole, in the row's order, `…` between them; stretches farthest from the place go
 * first when they do not all fit.
 */
export function withFields(
  text: string,
  at: number,
  end: number,
  spans: [number, number][],
  placeWidth: number,
  fieldWidth: number,
): string {
  const t = text.replace(/\r$/, "");
  const start = Math.max(0, Math.min(at - Math.floor(placeWidth / 4), t.length - placeWidth));
  const place: [number, number] = [start, Math.min(t.length, Math.max(end, start + placeWidth))];
  const byDistance = spans
    .map((s): [number, number] => [s[0], Math.min(s[1], s[0] + fieldWidth)])
    .sort((a, b) => Math.abs(a[0] - at) - Math.abs(b[0] - at));
  let kept: [number, number][] = [place];
  for (const s of byDistance) {
    const next = merged([...kept, s]);
    if (next.reduce((n, [a, b]) => n + b - a + 1, 0) > FIELDS_WIDTH) break;
    kept = next;
  }
  kept = merged(kept);
  const parts = kept.map(([a, b]) => t.slice(a, b));
  return `${kept[0]![0] > 0 ? "…" : ""}${parts.join("…")}${kept.at(-1)![1] < t.length ? "…" : ""}`;
}

function merged(ranges: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  for (const r of [...ranges].sort((a, b) => a[0] - b[0])) {
    const last = out.at(-1);
    if (last && r[0] <= last[1] + FIELDS_GAP) last[1] = Math.max(last[1], r[1]);
    else out.push([r[0], r[1]]);
  }
  return out;
}
