/**
 * `NAME = value` wherever a credential's name appears: env files (`DB_PASS=...`, `export X=...`),
 * YAML (`password: ...`), JSON (`"api_key": "..."`), INI/TOML, XML (`<password>...</password>`),
 * query strings (`&sig=...`), CLI flags (`--password X`, `--token=X`) and headers (`x-api-key: X`).
 * The name decides how suspicious the value must be (key-names.ts); references, placeholders and
 * harmless shapes are left alone (harmless-values.ts). Every scan is bounded: a value is read up to
 * MAX_VALUE characters, a name up to MAX_NAME.
 */
import { type Detector, indexWithin, isQuote, isSpace } from "./detector.ts";
import { decodesToUserPassword, isHarmlessValue } from "./harmless-values.ts";
import { classifyAssignment, isDigestWord, type KeyVerdict, qualifiesKeyAsHarmless } from "./key-names.ts";
import { RANK, type ScanContext } from "./scan-context.ts";
import { blockScalar } from "./yaml-blocks.ts";

const MAX_NAME = 80;
const MAX_VALUE = 512;
/** Words the automaton wakes this detector on; key-names.ts decides what the whole name means. */
const HINTS = [
  ...["pass", "pwd", "secret", "token", "key", "auth", "sig", "cred"],
  ...["private", "access", "hmac", "salt", "pepper", "seed", "otp", "mfa", "cookie", "mnemonic", "phrase"],
];

const HEADER_NAME = /^(?:x-[\w-]{1,60}|api-key|private-token|access-token|auth-token)$/i;

function isNameChar(code: number): boolean {
  return (
    (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || code === 95 || code === 45 || code === 46
  );
}

/** `literal`: written where a value can only be a string (an env file's `NAME=value`, a YAML line), never code. */
/** tail: where a value cut at MAX_VALUE for judging really ends (a long key blob is redacted whole). */
type Value = { start: number; end: number; quoted: boolean; literal?: boolean; tail?: number };

/** Where an unquoted value ends: whitespace, a quote, `&`/`#` in a query string. Cached per pass so hits inside one long run share one scan. */
function unquotedEnd(ctx: ScanContext, from: number, query: boolean): number {
  const key = query ? "assign.stopQ" : "assign.stop";
  const cached = ctx.state.get(key) as [number, number] | undefined;
  if (cached && from >= cached[0] && from <= cached[1]) return cached[1];
  const text = ctx.text;
  let i = from;
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 9 || c === 10 || c === 13 || c === 34 || c === 39 || c === 96) break;
    if (query && (c === 38 || c === 35)) break;
    if (c === 92 && (text.charCodeAt(i + 1) === 110 || text.charCodeAt(i + 1) === 34)) break; // \n or \" inside a JSON string
  }
  ctx.state.set(key, [from, i]);
  return i;
}

/** Finds the closing quote on the same line (a backslash escapes it); -1 if there is none within reach. */
function closingQuote(text: string, from: number, quote: number, lineEnd: number): number {
  const limit = Math.min(lineEnd, from + 4 * MAX_VALUE);
  for (let i = from; i < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 92) i++;
    else if (c === quote) return i;
  }
  return -1;
}

/** The name starts its line (YAML, env, INI): after indentation, `- `, `export ` or `set `. */
function startsLine(ctx: ScanContext, nameStart: number): boolean {
  const from = ctx.lineStart(nameStart);
  if (nameStart - from > 40) return false;
  const before = ctx.text.slice(from, nameStart).trim();
  return before === "" || before === "-" || before === "export" || before === "set" || before === "ENV" || before === "ARG";
}

function readValue(ctx: ScanContext, at: number, nameStart: number, sep: string): Value | null {
  const text = ctx.text;
  const lineEnd = ctx.lineEnd(at);
  if (at >= lineEnd) return null;
  if (sep === ">") {
    // <password>value</password>: the closing tag must follow.
    const close = indexWithin(text, "</", at, Math.min(lineEnd, at + MAX_VALUE));
    if (close === -1) return null;
    const name = text.slice(nameStart, at - 1);
    if (!text.startsWith(`</${name}>`, close)) return null;
    return { start: at, end: close, quoted: true };
  }
  let c = text.charCodeAt(at);
  // Python's byte and raw strings (`b'...'`, `r"..."`): the quote is the value's start.
  if ((c === 98 || c === 114 || c === 117) && isQuote(text.charCodeAt(at + 1)) && sep !== ">") c = text.charCodeAt(++at);
  // TOML's and Python's triple-quoted strings on one line: `password = """..."""`.
  if ((c === 34 || c === 39) && text.charCodeAt(at + 1) === c && text.charCodeAt(at + 2) === c) {
    const triple = indexWithin(text, text.slice(at, at + 3), at + 3, Math.min(lineEnd, at + 3 + MAX_VALUE));
    if (triple !== -1) return { start: at + 3, end: triple, quoted: true };
  }
  if (isQuote(c)) {
    const close = closingQuote(text, at + 1, c, lineEnd);
    if (close !== -1) return { start: at + 1, end: close, quoted: true };
    return { start: at + 1, end: Math.min(lineEnd, at + 1 + MAX_VALUE), quoted: false };
  }
  // A JSON string inside a JSON string: \"value\".
  if (c === 92 && text.charCodeAt(at + 1) === 34) {
    const close = indexWithin(text, '\\"', at + 2, Math.min(lineEnd, at + 4 * MAX_VALUE));
    return close === -1 ? null : { start: at + 2, end: close, quoted: true };
  }
  let end: number;
  let tail: number | undefined;
  if (sep === ":" && startsLine(ctx, nameStart)) {
    // YAML: the value is the rest of the line, less a trailing comment (# or, in a JS object, //).
    end = Math.min(lineEnd, at + MAX_VALUE);
    for (const marker of [" #", " //"]) {
      const comment = indexWithin(text, marker, at, end);
      if (comment !== -1 && comment < end) end = comment;
    }
    while (end > at && (isSpace(text.charCodeAt(end - 1)) || text.charCodeAt(end - 1) === 13)) end--;
    // `password: |`: the value is the indented block on the lines below.
    const block = blockScalar(ctx, text.slice(at, end), nameStart);
    if (block) return { ...block, quoted: false, literal: true };
    // A YAML value is a string; a line that ends in `,` or `;` is an object literal in code.
    const last = text.charCodeAt(end - 1);
    return { start: at, end: trimClosers(text, at, end), quoted: false, literal: last !== 44 && last !== 59 };
  } else {
    const query = nameStart > 0 && (text.charCodeAt(nameStart - 1) === 63 || text.charCodeAt(nameStart - 1) === 38);
    end = unquotedEnd(ctx, at, query);
    if (end - at > MAX_VALUE) {
      tail = end;
      end = at + MAX_VALUE;
    }
    end = nextPairAt(ctx, at, end);
    if (end < at + MAX_VALUE) tail = undefined;
  }
  // A string, not code: an env file's `NAME=value` (at the start of a line, no spaces), a query
  // string's `&name=value`, a connection string's `;Pwd=value;`.
  const before = text.charCodeAt(nameStart - 1);
  const after = text.charCodeAt(end);
  const literal =
    (sep === "=" && text.charCodeAt(at - 1) === 61 && !isSpace(text.charCodeAt(at - 2)) && startsLine(ctx, nameStart)) ||
    (sep === "=" && (before === 63 || before === 38)) ||
    (sep === "=" && before === 59 && (after === 59 || isQuote(after) || Number.isNaN(after) || after === 10 || after === 13));
  return { start: at, end: trimClosers(text, at, end), quoted: false, literal, tail };
}

/**
 * In `a=1;AccountKey=xyz;EndpointSuffix=...` (connection strings, query strings, logfmt) a value ends
 * where the next `;name=` begins; in minified code, where the next statement does (`;if(`, `;return`).
 * Whether a position is such a boundary depends on the text alone, so the stretch already known to
 * hold none is remembered and hits inside one long run do not rescan it.
 */
function nextPairAt(ctx: ScanContext, start: number, end: number): number {
  const text = ctx.text;
  const known = ctx.state.get("assign.pairs") as [number, number] | undefined;
  let i = known && start >= known[0] && start <= known[1] ? known[1] : start;
  for (; i < end; i++) {
    const c = text.charCodeAt(i);
    if ((c === 59 || c === 38 || c === 44) && startsPair(text, i)) break;
  }
  ctx.state.set("assign.pairs", [start, i]);
  return i;
}

function startsPair(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const next = text.slice(i + 1, i + 45);
  if (/^[A-Za-z_][\w.-]{0,40}=/.test(next) || (c === 44 && /^[A-Za-z_$][\w$]{0,40}[:,}]/.test(next))) return true;
  return c === 59 && /^(?:if\(|return\b|let |const |var |throw |for\(|while\(|try\{|else\b|function\b|[A-Za-z_$][\w$]{0,30}\()/.test(next);
}

const OPENERS: Record<string, string> = { ")": "(", "]": "[", "}": "{", ">": "<" };

/** A value inside code or JSON ends before the punctuation that closes what it sits in: `,` `;` and unbalanced `)]}>`. */
function trimClosers(text: string, start: number, end: number): number {
  let stop = end;
  for (;;) {
    const last = text[stop - 1];
    if (stop <= start || last === undefined) return stop;
    if (last === "," || last === ";" || last === ":") {
      stop--;
      continue;
    }
    const opener = OPENERS[last];
    if (opener === undefined) return stop;
    if (last === ">" && (text[stop - 2] === "=" || text[stop - 2] === "-")) return stop; // an arrow, => or ->
    let balance = 0;
    for (let i = start; i < stop; i++) {
      if (text[i] === opener) balance++;
      else if (text[i] === last) balance--;
    }
    if (balance >= 0) return stop;
    stop--;
  }
}

type QuoteParity = { line: number; pos: number; odd: Record<number, boolean> };

/**
 * True if `pos` lies inside a string literal of `quote` opened earlier on the line (`Error('bad token: ' + t)`):
 * the quote after the name then closes that literal rather than opening a value. Parity is carried
 * forward from hit to hit, so each line is read once.
 */
function insideString(ctx: ScanContext, pos: number, quote: number): boolean {
  const text = ctx.text;
  const line = ctx.lineStart(pos);
  let state = ctx.state.get("assign.quotes") as QuoteParity | undefined;
  if (state === undefined || state.line !== line) {
    state = { line, pos: line, odd: {} };
    ctx.state.set("assign.quotes", state);
  }
  // Forward from the last position, or back to an earlier one (a name starts before the last hit).
  const [from, to] = state.pos <= pos ? [state.pos, pos] : [pos, state.pos];
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (isQuote(c) && text.charCodeAt(i - 1) !== 92) state.odd[c] = !state.odd[c];
  }
  state.pos = pos;
  return state.odd[quote] === true;
}

type Judged = { kind: string; rank: number } | null;
/** How the value was written: quoted, in a query string, with spaces around the sign, as a literal string. */
type Written = { quoted: boolean; query: boolean; spaced: boolean; literal: boolean; label: boolean };
type LastJudgement = { name: string; sep: string; raw: string; written: Written; verdict: Judged };

const sameWriting = (a: Written, b: Written) =>
  a.quoted === b.quoted && a.query === b.query && a.spaced === b.spaced && a.literal === b.literal && a.label === b.label;

/** 12 to 24 lower-case words: a wallet's recovery phrase (BIP39), whatever the prose checks say. */
function isRecoveryPhrase(key: KeyVerdict, raw: string): boolean {
  if (!key.phrase) return false;
  const words = raw.trim().split(/\s+/);
  return words.length >= 12 && words.length <= 24 && words.every((w) => /^[a-z]{3,8}$/.test(w));
}

/**
 * The kind to redact the value as, or null if the name or value is harmless. The last judgement is
 * remembered: a run of identical assignments (a pathological input) costs one judgement.
 */
function judge(ctx: ScanContext, name: string, sep: string, raw: string, written: Written): Judged {
  const last = ctx.state.get("assign.last") as LastJudgement | undefined;
  if (last && last.name === name && last.sep === sep && last.raw === raw && sameWriting(last.written, written)) return last.verdict;
  let verdict: Judged = null;
  const key = classifyAssignment(name, sep);
  // A PEM value is private-keys.ts' to redact: it keeps the BEGIN/END lines and knows a certificate from a key.
  if (key !== null && (!key.queryOnly || written.query) && !raw.startsWith("-----BEGIN ")) {
    if (key.auth && decodesToUserPassword(raw.trim())) verdict = { kind: "basic-auth", rank: RANK.context };
    else if (isRecoveryPhrase(key, raw) || !isHarmlessValue(raw, { cls: key.cls, numbersAreSecret: key.numbersAreSecret, ...written }))
      verdict = { kind: key.kind, rank: RANK.generic };
  }
  ctx.state.set("assign.last", { name, sep, raw, written, verdict });
  return verdict;
}

/** The quoted name opening at `quote` is a call's first argument: `(` before it, spaces aside. */
function callArgument(text: string, quote: number): boolean {
  let i = quote - 1;
  while (i >= 0 && quote - i < 8 && isSpace(text.charCodeAt(i))) i--;
  return text.charCodeAt(i) === 40;
}

/** Reads `NAME <sep> value` around a keyword hit and redacts the value if the name and value say it is a credential. */
function onHit(ctx: ScanContext, start: number, end: number): void {
  const text = ctx.text;
  if (ctx.covered(start)) return;
  let nameStart = start;
  while (nameStart > 0 && start - nameStart < MAX_NAME && isNameChar(text.charCodeAt(nameStart - 1))) nameStart--;
  let nameEnd = end;
  while (nameEnd < text.length && nameEnd - end < MAX_NAME && isNameChar(text.charCodeAt(nameEnd))) nameEnd++;
  if (ctx.state.get("assign.name") === nameStart) return; // several keywords in one name
  ctx.state.set("assign.name", nameStart);
  // `public key: ...`, `host key: ...` (wg show, ssh) and `checksum/secret:` (a Helm annotation): the
  // word before the name says the value is no credential.
  // (After a space only a three-letter name can be such a key: the word is read for no other.)
  const joiner = text.charCodeAt(nameStart - 1);
  if (joiner === 47 || (isSpace(joiner) && nameEnd - nameStart === 3)) {
    const word = /([A-Za-z0-9]{2,20})[ \t/]$/.exec(text.slice(Math.max(0, nameStart - 22), nameStart));
    if (word && (joiner === 47 ? isDigestWord(word[1]!) : qualifiesKeyAsHarmless(word[1]!))) return;
  }
  // `scheme://user:password@` belongs to the URL detector.
  if (nameStart >= 2 && text.charCodeAt(nameStart - 1) === 47 && text.charCodeAt(nameStart - 2) === 47) return;

  let p = nameEnd;
  const before = nameStart > 0 ? text.charCodeAt(nameStart - 1) : 0;
  const quotedName = isQuote(before) && text.charCodeAt(p) === before;
  if (quotedName) {
    p++;
    // `config['SECRET_KEY'] = ...`, `ENV["API_TOKEN"] = ...`: a subscript names the value.
    if (text.charCodeAt(p) === 93 && text.charCodeAt(nameStart - 2) === 91) p++;
  } else if (before === 34 && text.charCodeAt(p) === 92 && text.charCodeAt(p + 1) === 34) p += 2; // \"name\"
  const flag = text.charCodeAt(nameStart) === 45;
  let spaces = 0;
  while (spaces < 16 && isSpace(text.charCodeAt(p))) {
    p++;
    spaces++;
  }
  if (text.charCodeAt(p) === 63 && text.charCodeAt(p + 1) === 58) p++; // TypeScript `name?: type`
  let sep: string;
  const c = text.charCodeAt(p);
  const next = text.charCodeAt(p + 1);
  if (c === 61) {
    // ==, ===, =~ with spaces compare; `PGPASSWORD==x` assigns a value that starts with "=".
    if (next === 126 || (next === 61 && (spaces > 0 || isSpace(text.charCodeAt(p + 2)) || text.charCodeAt(p + 2) === 61))) return;
    sep = "=";
    p += next === 62 ? 2 : 1;
  } else if (c === 58) {
    if (next === 58) return; // a path like Foo::Bar
    if (next === 61) {
      sep = "=";
      p += 2;
    } else {
      // `name:value` with neither quotes nor a space is a package or a path (`libsecret-1-0:amd64`),
      // unless the name is a header's (`x-api-key:abc` in `curl -H`).
      if (
        !quotedName &&
        !isSpace(next) &&
        !isQuote(next) &&
        next !== 10 &&
        next !== 13 &&
        !HEADER_NAME.test(text.slice(nameStart, nameEnd))
      )
        return;
      sep = ":";
      p++;
    }
  } else if (c === 62 && before === 60 && spaces === 0) {
    sep = ">"; // <password>value</password>
    p++;
  } else if (flag && spaces > 0) {
    sep = " "; // --password value
    if (c === 45 || c === 10 || c === 13 || Number.isNaN(c)) return;
  } else if (c === 44 && quotedName && callArgument(text, nameStart - 1)) {
    sep = ","; // define('DB_PASSWORD', 'value'), setenv("API_TOKEN", "value")
    p++;
  } else {
    return;
  }
  while (isSpace(text.charCodeAt(p)) && p - nameEnd < 40) p++;
  if (isQuote(text.charCodeAt(p)) && insideString(ctx, nameStart - (quotedName ? 1 : 0), text.charCodeAt(p))) return;
  // In a call the value is the next argument, and only a string literal is one.
  if (sep === "," && !isQuote(text.charCodeAt(p))) return;
  const value = readValue(ctx, p, nameStart, sep);
  if (value === null || value.end <= value.start) return;

  const query = sep === "=" && (before === 63 || before === 38 || before === 59);
  const raw = text.slice(value.start, value.start + ctx.examine(value.end - value.start));
  const spaced = spaces > 0 && isSpace(text.charCodeAt(value.start - 1));
  // A call's argument may be a label (`t("password", "Enter your password")`): prose there is harmless.
  const written = { quoted: value.quoted, query, spaced, literal: value.literal === true, label: sep === "," };
  const verdict = judge(ctx, text.slice(nameStart, nameEnd), sep, raw, written);
  if (verdict !== null) ctx.add(value.start, value.tail ?? value.end, verdict.kind, verdict.rank);
}

export const assignments: Detector = {
  name: "assignments",
  hints: HINTS,
  onHit: (ctx, start, end) => onHit(ctx, start, end),
};
