/** Order statistics for timings: median and nearest-rank percentiles. */

export function sorted(xs: readonly number[]): number[] {
  return [...xs].sort((a, b) => a - b);
}

/** Nearest-rank percentile (p in 0..100) of a non-empty sample; NaN when empty. */
export function percentile(xs: readonly number[], p: number): number {
  if (xs.length === 0) return Number.NaN;
  const s = sorted(xs);
  const rank = Math.ceil((p / 100) * s.length);
  return s[Math.min(s.length, Math.max(1, rank)) - 1]!;
}

/** The middle value; the mean of the two middle values for an even count. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return Number.NaN;
  const s = sorted(xs);
  const mid = s.length >> 1;
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export function maxOf(xs: readonly number[]): number {
  return xs.length === 0 ? Number.NaN : Math.max(...xs);
}

/** Throughput in MB/s (1 MB = 10^6 bytes). */
export function mbPerSecond(bytes: number, ms: number): number {
  return bytes / 1e6 / (ms / 1000);
}
