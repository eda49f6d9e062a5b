/**
 * JSON documents (after a few leading non-JSON lines such as an npm warning): the top-level shape
 * and keys, and what npm's JSON says went wrong ("error", "problems").
 */
import { describeRecords, isObj } from "./json-records.ts";
import { type Finding, SCORE } from "./line-score.ts";
import { plural, type Recogniser } from "./recogniser.ts";
import type { TextView } from "./text-view.ts";

/** Parsed in full only below this size; above it the keys come from a pretty-printed head. */
const MAX_PARSE_CHARS = 2 * 1024 * 1024;
const MAX_PREAMBLE_LINES = 3;

/** How a JSON document's first line starts: "{" or "[" alone, an object's first key, an array's first value. */
const JSON_OPEN = /^\s*(?:[{[]\s*$|\{\s*"|\[\s*(?:[{["\d-]|true\b|false\b|null\b|\]))/;

/** Index of the line where the JSON starts (0 = first line), or -1. */
function jsonStart(head: { text: string }[]): number {
  for (let i = 0; i < Math.min(head.length, MAX_PREAMBLE_LINES + 1); i++) {
    if (JSON_OPEN.test(head[i]!.text)) return i;
  }
  return -1;
}

/** The parsed document (undefined: too big to parse, or not JSON as a whole), parsed once per view. */
const parsedOf = new WeakMap<TextView, { value: unknown } | null>();
function parse(v: TextView, at: number): { value: unknown } | null {
  if (parsedOf.has(v)) return parsedOf.get(v)!;
  let result: { value: unknown } | null = null;
  if (v.text.length <= MAX_PARSE_CHARS) {
    let offset = 0;
    for (let i = 0; i < at; i++) offset = v.text.indexOf("\n", offset) + 1;
    try {
      result = { value: JSON.parse(v.text.slice(offset)) };
    } catch {
      result = null;
    }
  }
  parsedOf.set(v, result);
  return result;
}

function keyList(keys: string[], max = 10): string {
  return `${keys.slice(0, max).join(", ")}${keys.length > max ? ", …" : ""}`;
}

/** Value counts and the entries that stand out, for an array of objects at `label`. */
function records(items: unknown[], label: string, summary: string[]): void {
  const objects = items.filter(isObj);
  if (objects.length < 2) return;
  const { counts, standouts } = describeRecords(objects, label);
  summary.push(...counts, ...standouts.map((x) => x.text));
}

function describe(value: unknown, summary: string[]): void {
  if (Array.isArray(value)) {
    const first = value.find(isObj);
    summary.push(`JSON array of ${plural(value.length, "item")}${first ? `; items have keys: ${keyList(Object.keys(first))}` : ""}`);
    records(value, "[].", summary);
    return;
  }
  if (!value || typeof value !== "object") {
    summary.push(`JSON ${typeof value}`);
    return;
  }
  const o = value as Record<string, unknown>;
  const keys = Object.keys(o);
  summary.push(`JSON object with ${plural(keys.length, "key")}: ${keyList(keys)}`);
  const err = o.error as Record<string, unknown> | undefined;
  if (err && typeof err === "object")
    summary.push(`error: ${[err.code, err.summary ?? err.message].filter(Boolean).join(" ")}`.slice(0, 200));
  if (Array.isArray(o.problems) && o.problems.length > 0) {
    summary.push(`problems (${o.problems.length}): ${o.problems.slice(0, 3).map(String).join("; ")}`.slice(0, 300));
  }
  if (typeof o.name === "string" && typeof o.version === "string") summary.push(`${o.name}@${o.version}`);
  if (o.packages && typeof o.packages === "object" && "lockfileVersion" in o) {
    summary.push(`lockfileVersion ${o.lockfileVersion}: ${plural(Object.keys(o.packages).length, "package entry", "package entries")}`);
  }
  // The first arrays of objects under the top-level keys: a report's results, a test run's cases.
  for (const k of keys.filter((key) => Array.isArray(o[key]) && (o[key] as unknown[]).some(isObj)).slice(0, 2))
    records(o[k] as unknown[], `${k}[].`, summary);
}

export const json: Recogniser = {
  kind: "json",
  listing: true,
  // A log whose lines start with "[" is not JSON: below the parse limit, only a document that parses is.
  detect(v: TextView) {
    const end = v.tailText.trimEnd().at(-1);
    if (end !== "}" && end !== "]") return false;
    const at = jsonStart(v.head());
    return at !== -1 && (v.text.length > MAX_PARSE_CHARS || parse(v, at) !== null);
  },
  analyze(v) {
    const head = v.head();
    const at = jsonStart(head);
    const summary: string[] = [];
    const important: Finding[] = [];
    if (at > 0) summary.push(`${plural(at, "line")} before the JSON: ${head[0]!.text.slice(0, 100)}`);
    const parsed = parse(v, at);
    if (parsed) describe(parsed.value, summary);
    else {
      const keys = v.scan('  "', /^ {2}"([^"]{1,80})": /, 40).hits.map((h) => h.m[1]!);
      if (keys.length > 0) summary.push(`top-level keys (from the indented head): ${keyList(keys)}`);
    }
    const bad = /^ {2,4}"(?:error|errors|problems|invalid|missing)": (?!null|0\b|false|\[\]|\{\})/;
    for (const h of v.scan(/"(?:error|problems|invalid|missing)/g, bad, 6).hits)
      important.push({ line: h.line, text: h.text, score: SCORE.errorWord });
    return { summary, important };
  },
};
