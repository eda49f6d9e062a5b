/**
 * Identifiers found whole and in parts. SQLite's unicode61 tokenizer keeps `rateLimiter` as one
 * word and splits `rate_limiter` into two, so neither is found by the other's spelling, nor by
 * "rate limiter". The extra words an event is indexed by close that gap both ways: the parts of a
 * camelCase or PascalCase identifier (`rateLimiter`: rate, limiter; `HTTPServer`: http, server)
 * and the joined form of one split by `_` or `-` (`rate_limiter`: ratelimiter). A query is split
 * the same way (query.ts). A name numbered by a trailing number (`i2c0`, `uart1`, `node12`) is
 * also found by the name alone (`i2c`, `uart`, `node`): the number is an instance, the name the thing.
 * An amount of time in symbols ("24h") is also found by its unit's name (unit-symbols.ts).
 */
import { MAYBE_AMOUNT, unitNames } from "./unit-symbols.ts";

const IDENTIFIER = /[\p{L}\p{N}]+(?:[_-][\p{L}\p{N}]+)*/gu;
/** Lower to upper (rateLimiter), or an upper run before a capitalised word (HTTPServer). */
const CAMEL = /(?<=\p{Ll}|\p{N})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;
const MAX_EXTRA = 64;
/** A separator or a digit anywhere, or a capital after the first character. */
const MAYBE_PARTS = /[_\-\p{N}]|.\p{Lu}/u;

/** The parts of a camelCase word, lower-cased; [] for a word that is not one. */
export function camelParts(word: string): string[] {
  if (!/\p{Lu}/u.test(word.slice(1)) || !/\p{Ll}/u.test(word)) return [];
  const parts = word.split(CAMEL).filter((p) => p.length > 0);
  return parts.length > 1 ? parts.map((p) => p.toLowerCase()) : [];
}

/** A `_`/`-` joined identifier's joined form (rate_limiter: ratelimiter); null for one word. */
export function joinedForm(token: string): string | null {
  const pieces = token.split(/[_-]/);
  if (pieces.length < 2 || pieces.length > 6) return null;
  // Numbers and single letters joined are not a name (2024-01-05, a-b).
  if (pieces.every((p) => /^\p{N}+$/u.test(p)) || pieces.some((p) => p.length === 0)) return null;
  return pieces.join("").toLowerCase();
}

/** A numbered name's name (`i2c0`: i2c, `uart1`: uart); null when the token is not a name of two or more characters ending in a letter, then digits. */
export function unnumbered(token: string): string | null {
  const m = /^(\p{L}[\p{L}\p{N}]*\p{L})\p{N}+$/u.exec(token);
  return m ? m[1]!.toLowerCase() : null;
}

/**
 * What any word with extra terms needs somewhere in the text: a `_` or `-` (a joined form), a
 * letter or digit before a capital (camelCase parts), a letter before a digit (a numbered name).
 * Most events have none: their words are not split at all.
 */
const MAYBE_EXTRA = /[_-]|[\p{L}\p{N}]\p{Lu}|\p{L}\p{N}/u;

/** The words to index besides the text's own, space-separated; null when there are none. */
export function extraTerms(text: string): string | null {
  const head = text.length > 8192 ? text.slice(0, 8192) : text;
  // Amounts of time written in symbols ("24h") are found by the unit's name too (unit-symbols.ts).
  const extra = new Set<string>(MAYBE_AMOUNT.test(head) ? unitNames(head) : []);
  if (!MAYBE_EXTRA.test(head)) return extra.size === 0 ? null : [...extra].join(" ");
  // match, not matchAll: one string per word, no match object and iterator step each (every event is split on import).
  for (const token of head.match(IDENTIFIER) ?? []) {
    // A plain word (no separator, digit or inner capital) has no parts, joined form or number: most words.
    if (token.length < 3 || !MAYBE_PARTS.test(token)) continue;
    const joined = joinedForm(token);
    if (joined) extra.add(joined);
    for (const piece of token.split(/[_-]/)) {
      for (const part of camelParts(piece)) if (part.length > 1) extra.add(part);
      const name = unnumbered(piece);
      if (name) extra.add(name);
    }
    if (extra.size >= MAX_EXTRA) break;
  }
  return extra.size === 0 ? null : [...extra].join(" ");
}
