/**
 * Deterministic randomness for the benchmark corpus: mulberry32, seeded. Never Math.random,
 * so every run of the benchmark stores and searches byte-identical data.
 */

export type Rng = {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [0, n). */
  int(n: number): number;
  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number;
  pick<T>(xs: readonly T[]): T;
  chance(p: number): boolean;
  hex(length: number): string;
  uuid(): string;
};

const HEX = "0123456789abcdef";

export function createRng(seed: number): Rng {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (n: number): number => Math.floor(next() * n);
  const hex = (length: number): string => {
    let out = "";
    for (let i = 0; i < length; i++) out += HEX[int(16)];
    return out;
  };
  return {
    next,
    int,
    range: (lo, hi) => lo + int(hi - lo + 1),
    pick: (xs) => xs[int(xs.length)]!,
    chance: (p) => next() < p,
    hex,
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${HEX[8 + int(4)]}${hex(3)}-${hex(12)}`,
  };
}
