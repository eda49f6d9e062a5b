/**
 * A command's output that prints a setting states what the project is configured to: `cat` of a
 * config file printing `ssr = false`, `retry: 5`, `POOL_SIZE=20`, a JSON or YAML key with a
 * scalar. When such a line's key names a word of the query (its own form or family, an identifier
 * split into its parts), the command answers that query as a statement of the project's state,
 * not as chatter. The shapes are the common config syntaxes (TOML/INI `key = value`, YAML
 * `key: value`, dotenv/shell `KEY=value`, one JSON member per line); the value must be one
 * scalar (a single token or a quoted string), so prose such as `error: file not found` is no setting.
 */
import type { WeightedGroup } from "./candidates.ts";
import { camelParts } from "./identifiers.ts";
import { DERIVED_WEIGHT } from "./morphology.ts";
import { foldText, porterStem, wordsOf } from "./stem.ts";

/**
 * Optional `grep -n` place (`path:12:` or `12:`), list dash or `export`, a key (quoted or not,
 * dotted or not, a Ruby symbol's `:` before it), `=` or `:`, one value.
 */
const SETTING =
  /^(?:(?:[^\s:]+:)?\d+[:-])?\s*(?:-\s+|export\s+)?:?(?:"([\p{L}_][\p{L}\p{N}_.-]*)"|'([\p{L}_][\p{L}\p{N}_.-]*)'|([\p{L}_][\p{L}\p{N}_.-]*))\s*([=:])\s*(.*)$/u;
/** One scalar: a quoted string, or one token (a number, a boolean, a word, a path); a trailing comma or comment dropped. */
const SCALAR = /^(?:"[^"]*"|'[^']*'|[^\s"'{}[\]]+)\s*,?\s*(?:#.*)?$/u;
/** Longer output is a dump, not a file someone looked at; only its head is read. */
const MAX_LINES = 200;
const MAX_VALUE = 120;

/** The keys of the setting lines of a command's output (its first line is the command itself). */
export function settingKeys(text: string): string[] {
  const lines = text.split("\n", MAX_LINES + 1).slice(1);
  const keys: string[] = [];
  for (const line of lines) {
    const m = SETTING.exec(line);
    if (!m) continue;
    const value = m[5]!.trim();
    // `key:` with nothing after is a YAML section, `a: b: c` no scalar; a URL's scheme is no key.
    if (value.length === 0 || value.length > MAX_VALUE || value.startsWith("//")) continue;
    if (!SCALAR.test(value)) continue;
    keys.push(m[1] ?? m[2] ?? m[3]!);
  }
  return keys;
}

/** The stems of a key's words: split at separators and at camelCase joins. */
function keyStems(key: string): string[] {
  const words = wordsOf(foldText(key));
  for (const piece of key.split(/[^\p{L}\p{N}]+/u)) words.push(...camelParts(piece));
  return words.map(porterStem);
}

/** A key names the query's subject when its words hold at least this share of the query's weight (idf): one common word of a longer question (`time` in "how many can it show at one time") is not its subject. */
const SUBJECT_SHARE = 0.5;

/** Whether a command's output sets a key that names the query's subject: query words (own form or family, weight >= `minForm`) holding SUBJECT_SHARE of the query's weight. */
export function setsQueriedKey(text: string, groups: readonly WeightedGroup[], minForm = DERIVED_WEIGHT): boolean {
  if (groups.length === 0 || !text.includes("\n")) return false;
  const keys = settingKeys(text);
  if (keys.length === 0) return false;
  let total = 0;
  for (const g of groups) total += g.idf;
  if (total <= 0) return false;
  return keys.some((key) => {
    const stems = new Set(keyStems(key));
    let held = 0;
    for (const g of groups) if (g.forms.some((f) => f.weight >= minForm && stems.has(f.stem))) held += g.idf;
    return held >= SUBJECT_SHARE * total;
  });
}
