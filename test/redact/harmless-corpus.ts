/**
 * The harmless corpus: real files and command output from this machine (lockfiles, package.json
 * files, `npm ls`, `dpkg -l`, `apt-get -s install`, an npm install log) and hand-written lines that
 * look like secrets but are not (fixtures/). Redaction must leave every line of it as it is.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

export const FIXTURES = join(import.meta.dir, "fixtures");

export type Doc = { name: string; text: string };

export function harmlessDocs(): Doc[] {
  const docs: Doc[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir).sort()) {
      const path = join(dir, entry);
      if (statSync(path).isDirectory()) walk(path);
      else docs.push({ name: relative(FIXTURES, path), text: readFileSync(path, "utf8") });
    }
  };
  walk(FIXTURES);
  return docs;
}

/** Secret-looking but harmless single lines (the examples and their kind). */
export function trickyLines(): string[] {
  return readFileSync(join(FIXTURES, "tricky-lines.txt"), "utf8").split("\n").filter(Boolean);
}

/** About `bytes` of harmless text: the corpus documents, whole, in a seeded order, repeated. */
export function harmlessNoise(bytes: number, seed: number): string {
  const docs = harmlessDocs();
  const parts: string[] = [];
  let size = 0;
  let state = seed >>> 0;
  while (size < bytes) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const doc = docs[state % docs.length]!;
    const text = doc.text.endsWith("\n") ? doc.text : `${doc.text}\n`;
    parts.push(text);
    size += text.length;
  }
  return parts.join("");
}
