/**
 * What was worked out for a text or a word, kept for the next time: the same rows come back query
 * after query, and supersession compares each new statement with dozens of older ones. A store holds
 * at most `max` entries and starts again empty when full (no bookkeeping per hit); what it returns
 * is shared and never changed by its callers.
 */
export type Remembered<T> = (key: string, make: () => T) => T;

export function remembered<T>(max: number): Remembered<T> {
  const kept = new Map<string, T>();
  return (key, make) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
