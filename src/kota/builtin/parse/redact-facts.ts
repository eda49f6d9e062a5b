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

export function redactFacts(f: StoredFacts): StoredFacts {
  const strings: string[] = [];
  for (const s of f.symbols) strings.push(s.name, s.signature, s.parent ?? "");
  for (const i of f.imports) strings.push(i.specifier);
  for (const e of f.exports) strings.push(e.name, e.local ?? "", e.imported ?? "");
  for (const r of f.refs) strings.push(r[1], r[2] ?? "");
  if (f.error) strings.push(f.error.message);
  // One look over all of them; only a file with a secret somewhere pays for redacting each string.
  if (!hasSecrets(strings.join("\n"))) return f;
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
