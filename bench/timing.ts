/** Wall-clock timing of one call, after a full GC so earlier garbage is not billed to it. */

export function timeSync<T>(fn: () => T, gc = true): { ms: number; value: T } {
  if (gc) Bun.gc(true);
  const start = performance.now();
  const value = fn();
  return { ms: performance.now() - start, value };
}

export async function timeAsync<T>(fn: () => Promise<T>, gc = true): Promise<{ ms: number; value: T }> {
  if (gc) Bun.gc(true);
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}

/** Wall-clock milliseconds of each of `n` sequential calls (no GC between: a steady-state loop). */
export async function timeEach(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/** Progress goes to stderr so stdout stays clean. */
export function log(message: string): void {
  process.stderr.write(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
}
