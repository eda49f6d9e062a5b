/**
 * Secrets never reach the index: every string a file's facts store (signatures, names, module
 * specifiers, the parse error) and the words its text is searched by pass the redactor first.
 * Positions are unaffected: they come from the original text, which stays on disk.
 */
import { readFileSync } from "node:fs";
import { sha256 } from "../../../hash.ts";
import { hasSecrets, redact } from "../../../redact/redact.ts";
import { splitIdentifiers } from "../query/search-words.ts";
import type { StoredFacts } from "./facts.ts";

const clean = (s: string): string => redact(s).text;
const cleanOrNull = (s: string | null): string | null => (s === null ? null : clean(s));

/**
 * Strings of facts already looked at and found clean, in earlier files of this process: the names a
 * repository uses (`z`, `ZodType`, `parse`) come back in file after file, and each is looked at once,
 * not once per file (on a cold index about half the text looked at). A string is only ever added
 * after a look found nothing; the set starts over past CLEAN_MAX strings, so memory stays bounded.
 */
const knownClean = new Set<string>();
const CLEAN_MAX = 200_000;

/** `known`: the strings found clean before (default: this process's set; tests pass their own). */
export function redactFacts(f: StoredFacts, known: Set<string> = knownClean): StoredFacts {
  const strings = new Set<string>();
  const fresh = (s: string) => {
    if (!known.has(s)) strings.add(s);
  };
  for (const s of f.symbols) {
    fresh(s.name);
    fresh(s.signature);
    if (s.parent !== null) fresh(s.parent);
  }
  for (const i of f.imports) fresh(i.specifier);
  for (const e of f.exports) {
    fresh(e.name);
    if (e.local !== null) fresh(e.local);
    if (e.imported !== null) fresh(e.imported);
  }
  for (const r of f.refs) {
    fresh(r[1]);
    if (r[2] !== null) fresh(r[2]);
  }
  if (f.error) fresh(f.error.message);
  // One look over the strings not known to be clean; only a file with a secret somewhere pays for
  // redacting each string. A file whose strings are all clean teaches the set its new ones.
  if (!hasSecrets([...strings].join("\n"))) {
    if (known.size + strings.size > CLEAN_MAX) known.clear();
    for (const s of strings) known.add(s);
    return f;
  }
  return {
    symbols: f.symbols.map((s) => ({ ...s, name: clean(s.name), signature: clean(s.signature), parent: cleanOrNull(s.parent) })),
    imports: f.imports.map((i) => ({ ...i, specifier: clean(i.specifier) })),
    exports: f.exports.map((e) => ({ ...e, name: clean(e.name), local: cleanOrNull(e.local), imported: cleanOrNull(e.imported) })),
    refs: f.refs.map(([i, name, owner, member, n, sites]) => [i, clean(name), cleanOrNull(owner), member, n, sites]),
    error: f.error ? { ...f.error, message: clean(f.error.message) } : null,
  };
}

/** What the search index tokenizes for a file: its redacted text, identifiers split at their humps. */
export function searchBody(text: string): string {
  return splitIdentifiers(redact(text).text);
}

/**
 * A parser's answer made ready to store, in the indexing process: its facts redacted and the file's
 * search words, from the file read again here (no text crosses the parser's pipe). When that is no
 * longer the text the parser hashed (changed or gone meanwhile), the file is marked to be parsed again.
 */
export function storedOutcome(
  file: string,
  facts: StoredFacts,
  hash: string | null,
): { facts: StoredFacts; body: string; hash: string | null; retry?: boolean } {
  const clean = redactFacts(facts);
  if (hash === null) return { facts: clean, body: "", hash };
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch {
    return { facts: clean, body: "", hash, retry: true };
  }
  const body = searchBody(bytes.toString("utf8"));
  return sha256(bytes) === hash ? { facts: clean, body, hash } : { facts: clean, body, hash, retry: true };
}
