/** Offsets (UTF-16, as the parser reports them) to 1-based lines and columns. */
export type LineMap = {
  line(offset: number): number;
  column(offset: number): number;
  /** The offset where a line (1-based) starts. */
  start(line: number): number;
  text(line: number): string;
};

export function lineMap(source: string): LineMap {
  const starts = [0];
  for (let i = source.indexOf("\n"); i !== -1; i = source.indexOf("\n", i + 1)) starts.push(i + 1);
  // The walks ask in source order mostly: the line of the last answer, or the one after it, is
  // checked before the binary search (the same answer, without ~log2(lines) steps per reference).
  let last = 0;
  const line = (offset: number): number => {
    const at = starts[last]!;
    if (offset >= at) {
      const next = starts[last + 1];
      if (next === undefined || offset < next) return last + 1;
      const after = starts[last + 2];
      if (after === undefined || offset < after) return ++last + 1;
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    last = lo;
    return lo + 1;
  };
  return {
    line,
    column: (offset) => offset - starts[line(offset) - 1]! + 1,
    start: (n) => starts[n - 1] ?? source.length,
    text: (n) => {
      const start = starts[n - 1];
      if (start === undefined) return "";
      const end = starts[n] ?? source.length + 1;
      return source.slice(start, end - 1).replace(/\r$/, "");
    },
  };
}
