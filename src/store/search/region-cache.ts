/**
 * Regions read for one search, kept for the next ones. Searches of one store come back to the
 * same chunks (the newest output, the text an agent keeps asking about), and reading a region
 * (its chunks' text from SQLite, split into rows, its layout worked out) is a fifth of a search.
 * A text's chunks are written with it and deleted with it, never changed, so a region read from
 * one text stays right while that text is stored: the key names the text by its id and by when
 * it was stored and its hash (an id freed by a purge and taken again names another text). The
 * newest regions are kept, up to a budget of characters per database and kind of thing kept
 * (`space`: whole regions, and the chunks' text they are made of, each have their own).
 */
import type { Db } from "../../db/open.ts";

/** Characters of region text kept per database (with their rows and layout, about 3 bytes each in memory). */
const MAX_CHARS = 4_000_000;

type Kept<T> = { map: Map<string, { value: T; size: number }>; size: number };

const kept = new WeakMap<Db, Map<string, Kept<unknown>>>();

export type RegionCache<T> = {
  get(key: string): T | undefined;
  /** Keeps `value`, `size` characters large; the least recently used go first when over budget. */
  put(key: string, value: T, size: number): void;
};

export function regionCache<T>(db: Db, space = "regions"): RegionCache<T> {
  const spaces = kept.get(db) ?? new Map<string, Kept<unknown>>();
  kept.set(db, spaces);
  const k = (spaces.get(space) ?? { map: new Map(), size: 0 }) as Kept<T>;
  spaces.set(space, k as Kept<unknown>);
  return {
    get(key) {
      const e = k.map.get(key);
      if (!e) return undefined;
      // Most recently used last.
      k.map.delete(key);
      k.map.set(key, e);
      return e.value;
    },
    put(key, value, size) {
      if (size > MAX_CHARS) return;
      const old = k.map.get(key);
      if (old) k.size -= old.size;
      k.map.delete(key);
      k.map.set(key, { value, size });
      k.size += size;
      for (const [oldest, e] of k.map) {
        if (k.size <= MAX_CHARS) break;
        k.map.delete(oldest);
        k.size -= e.size;
      }
    },
  };
}
