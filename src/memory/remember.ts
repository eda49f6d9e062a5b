/**
 * What was worked out for a text or a word, kept for the next time: the same rows come back query
 * after query, and supersession compares each new statement with dozens of older ones. A store holds
 * at most `max` entries and starts again empty when full (no bookkeeping per hit); what it returns
 * is shared and never changed by its callers.
 */
export type Remembered<T, K = string> = (key: K, make: () => T) => T;

export function remembered<T, K = string>(max: number): Remembered<T, K> {
  const kept = new Map<K, T>();
  return (key, make) => {
    const hit = kept.get(key);
    if (hit !== undefined) return hit;
    const value = make();
    if (kept.size >= max) kept.clear();
    kept.set(key, value);
    return value;
  };
}
