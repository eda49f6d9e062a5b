/**
 * A small thesaurus of everyday software words, so "which database" finds "stores its data in
 * postgres" and "who owns" finds "the owner is". Close synonyms count as the same word everywhere
 * (search and supersession); related words only widen a search, at a lower weight. Stems (the
 * index's porter stems), so inflections are covered.
 */
import { porterStem } from "./stem.ts";

const CLOSE: string[][] = [
  ["database", "db", "datastore", "persistence", "storage"],
  ["deploy", "deployment", "deployed", "ship", "shipped", "rollout"],
  ["owner", "own", "owns", "maintainer", "maintains", "maintain"],
  ["environment", "env"],
  ["repository", "repo"],
  ["dependency", "dependencies", "deps", "dep"],
  ["configuration", "config", "settings"],
  ["directory", "dir", "folder"],
  ["credential", "credentials", "secret", "secrets"],
  ["documentation", "docs", "doc"],
  ["production", "prod"],
  ["development", "dev"],
];

const RELATED: string[][] = [
  ["database", "data", "store", "stores"],
  ["port", "listen", "listens", "url", "host"],
  ["topic", "publish", "publishes", "queue", "kafka", "channel"],
  ["install", "package", "packages", "dependency"],
  ["version", "pinned", "pin"],
  ["branch", "push", "merge", "pull"],
  ["test", "tests", "spec", "suite"],
  ["owner", "review", "reviewer", "responsible"],
  ["deploy", "release", "tool"],
  ["error", "fail", "failure", "crash", "exception"],
  ["commit", "message"],
  ["export", "exports", "component"],
];

const canonical = new Map<string, string>();
const closeGroups = new Map<string, string[]>();
for (const group of CLOSE) {
  const head = porterStem(group[0]!);
  closeGroups.set(head, group);
  for (const w of group) canonical.set(porterStem(w), head);
}

/** Canonical stem -> the words of every related group it is in. */
const related = new Map<string, Set<string>>();
for (const group of RELATED) {
  for (const w of group) {
    const head = canonical.get(porterStem(w)) ?? porterStem(w);
    const set = related.get(head) ?? new Set<string>();
    for (const other of group) if (other !== w) set.add(other);
    related.set(head, set);
  }
}

/** The stem every close synonym shares (the stem itself for any other word). */
export function canonicalStem(stem: string): string {
  return canonical.get(stem) ?? stem;
}

/** Close synonyms of a stem, as words (the index stems them itself); none for most words. */
export function closeWords(stem: string): string[] {
  const head = canonical.get(stem);
  return head === undefined ? [] : closeGroups.get(head)!.filter((w) => porterStem(w) !== stem);
}

/** Related words of a stem (they widen a search at a lower weight). */
export function relatedWords(stem: string): string[] {
  return [...(related.get(canonicalStem(stem)) ?? [])].filter((w) => canonicalStem(porterStem(w)) !== canonicalStem(stem));
}
