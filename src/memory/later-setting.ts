/**
 * A setting seen again with another value: a later text that assigns a named setting
 * (`pool_size = 40`, `RETRY_LIMIT = 5`, `maxWorkers: 8`) ranks right above an
 * earlier one assigning the same setting a different value, whatever kind each is (a command's
 * output printing the configuration says what holds as well as a note does). The name must be
 * written as code names a setting (an underscore, a dot, or a capital inside the word), so prose
 * such as "note: ..." or "fix: ..." is no setting.
 */
import { ABOVE, units } from "./conflicts.ts";
import type { Hit } from "./units.ts";

/**
 * A code name set to one value: a snake or screaming-case name (an underscore inside) or a camel-case
 * one with `=` or `:`, a dotted name with `=` only (`host.internal:5051` and `cache.ts:330` are a
 * host's port and a file's line, not settings); not part of a path, a URL or a longer name.
 */
const ASSIGNMENT =
  /(?<![\p{L}\p{N}_.\-/:@])(?:([\p{L}_][\p{L}\p{N}]*(?:_[\p{L}\p{N}]+)+|\p{Ll}+(?:\p{Lu}[\p{Ll}\p{N}]*)+)["']?\s*[=:]|([\p{L}_][\p{L}\p{N}_]*(?:\.[\p{L}\p{N}_]+)+)["']?\s*=)\s*["']?([^\s"',;)}\]]+)/gu;

/** The settings a text assigns, by name (lower-cased), each with its last value. */
export function assignments(text: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of text.slice(0, 4000).matchAll(ASSIGNMENT)) out.set((m[1] ?? m[2])!.toLowerCase(), m[3]!.toLowerCase());
  return out;
}

/** The best units read: what is shown and just below it. */
const READ = 10;

/** Lifts each later unit that assigns a setting another value right above the earlier units assigning it, among the best. */
export function laterSettingFirst(hits: Hit[]): void {
  const all = units(hits)
    .filter((u) => u.event !== null && u.replacedBy === null)
    .sort((a, b) => b.score - a.score)
    .slice(0, READ)
    .map((u) => ({ u, set: assignments(u.text) }))
    .filter((x) => x.set.size > 0)
    .sort((a, b) => a.u.order - b.u.order);
  for (let i = 0; i < all.length; i++) {
    const older = all[i]!;
    for (let j = i + 1; j < all.length; j++) {
      const newer = all[j]!;
      if (newer.u.order === older.u.order) continue;
      const changed = [...newer.set].some(([k, v]) => older.set.has(k) && older.set.get(k) !== v);
      if (changed) newer.u.score = Math.max(newer.u.score, older.u.score * ABOVE);
    }
  }
}
