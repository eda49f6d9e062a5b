/** Sets of 1-based inclusive line ranges, kept sorted and merged. */
export type Range = [number, number];

export function addRange(ranges: readonly Range[], [a, b]: Range): Range[] {
  const out: Range[] = [];
  let cur: Range = [a, b];
  for (const r of ranges) {
    if (r[1] < cur[0] - 1) out.push(r);
    else if (r[0] > cur[1] + 1) {
      out.push(cur);
      cur = r;
    } else cur = [Math.min(r[0], cur[0]), Math.max(r[1], cur[1])];
  }
  out.push(cur);
  return out.sort((x, y) => x[0] - y[0]);
}

export function removeRange(ranges: readonly Range[], [a, b]: Range): Range[] {
  const out: Range[] = [];
  for (const [x, y] of ranges) {
    if (y < a || x > b) out.push([x, y]);
    else {
      if (x < a) out.push([x, a - 1]);
      if (y > b) out.push([b + 1, y]);
    }
  }
  return out;
}

export function covers(ranges: readonly Range[], [a, b]: Range): boolean {
  return ranges.some(([x, y]) => x <= a && b <= y);
}
