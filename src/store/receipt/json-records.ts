/**
 * Records in JSON (the objects of an array, the lines of a JSON-lines log): how many, the values of
 * their low-cardinality fields with counts (a status, a level, a severity: whatever field has few
 * distinct values), and the records that stand out, shown as compact JSON of their own fields.
 * A record stands out when a count named in the fail/error/warn family is not zero, when one of its
 * values is such a word, or when its numeric level is error or worse on the bunyan/pino scale
 * (50 error, 60 fatal). Fields every record shares with one value (a service name) and strings
 * too long to read (a stack) are left out, so the fields that tell records apart fit on the line.
 */
import { formatCount } from "../../units.ts";

type Obj = Record<string, unknown>;

/** Outcome stems of the fail/error/warn family (as in tally.ts), as a field name or a value. */
const BAD_NAME = /(?:fail|error|fatal|crash|violat|warn)/i;
const BAD_VALUE = /^(?:fail\w*|error\w*|err|fatal|crit\w*|panic|broken|timed ?out|timeout|warn\w*)$/i;
const WARN_NAME = /warn/i;
const LEVEL_NAME = /^(?:level|severity|lvl)$/i;
/** bunyan / pino numeric levels: 50 error, 60 fatal. */
const LEVEL_ERROR = 50;
const MAX_VALUES = 6;
const MAX_STRING = 100;
/** Records needed before fields every record shares are taken for an envelope (a log's), not data. */
const ENVELOPE_RECORDS = 10;

export function isObj(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** How bad a record looks: 0 when it does not stand out; failures and errors outweigh any number of warnings. */
function badness(r: Obj): number {
  let score = 0;
  for (const [k, v] of Object.entries(r)) {
    const weight = WARN_NAME.test(k) ? 1 : 1e6;
    if (typeof v === "number" && v > 0 && BAD_NAME.test(k)) score += Math.min(v, 1e5) * weight;
    else if (typeof v === "number" && LEVEL_NAME.test(k) && v >= LEVEL_ERROR) score += 1e6;
    else if (typeof v === "string" && BAD_VALUE.test(v.trim())) score += WARN_NAME.test(v) ? 1 : 1e6;
    else if (typeof v === "boolean" && v && BAD_NAME.test(k)) score += weight;
    else if (isObj(v) && /^(?:err|error|exception)$/i.test(k)) score += 1e6;
  }
  return score;
}

/** Fields with one value in every record of a long run (a log's service name): said once, not on every record shown. */
function sharedFields(records: Obj[]): Set<string> {
  const shared = new Set<string>();
  if (records.length < ENVELOPE_RECORDS) return shared;
  const first = records[0]!;
  for (const [k, v] of Object.entries(first)) {
    if (v === null || typeof v === "object") continue;
    if (records.every((r) => r[k] === v)) shared.add(k);
  }
  return shared;
}

/** An ISO 8601 date and time, as logs stamp their records. */
const ISO_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

/**
 * Fields in every record that only say when: numbers with a different value in each (a timestamp,
 * a sequence number) or ISO 8601 times.
 */
function countingFields(records: Obj[]): Set<string> {
  const out = new Set<string>();
  if (records.length < ENVELOPE_RECORDS) return out;
  for (const [k, v] of Object.entries(records[0]!)) {
    if (typeof v === "string" && records.every((r) => typeof r[k] === "string" && ISO_TIME.test(r[k] as string))) out.add(k);
    if (typeof v !== "number") continue;
    // Rising (never falling) in every record: a clock or a counter.
    if (records.every((r, i) => typeof r[k] === "number" && (i === 0 || (r[k] as number) >= (records[i - 1]![k] as number)))) out.add(k);
  }
  return out;
}

/** A record's own fields as compact JSON: scalars first, nested objects after, long strings cut. */
function compact(r: Obj, skip: Set<string>): string {
  const scalars: Obj = {};
  const nested: Obj = {};
  for (const [k, v] of Object.entries(r)) {
    if (skip.has(k)) continue;
    if (typeof v === "string") {
      if (v.length <= MAX_STRING) scalars[k] = v;
    } else if (isObj(v)) {
      const inner: Obj = {};
      for (const [ik, iv] of Object.entries(v))
        if (iv !== null && typeof iv !== "object" && String(iv).length <= MAX_STRING) inner[ik] = iv;
      if (Object.keys(inner).length > 0) nested[k] = inner;
    } else if (!Array.isArray(v)) scalars[k] = v;
  }
  return JSON.stringify({ ...scalars, ...nested });
}

/** "level: 30 ×900, 40 ×12, 50 ×2" for each field with 2..MAX_VALUES values over the records. */
function valueCounts(records: Obj[], label: string, max: number): string[] {
  if (records.length < 4) return [];
  const out: { line: string; distinct: number }[] = [];
  for (const k of Object.keys(records[0]!)) {
    const counts = new Map<string, number>();
    let present = 0;
    for (const r of records) {
      const v = r[k];
      // A status column: words and flags; numbers only for a level.
      if (typeof v !== "string" && typeof v !== "boolean" && !(typeof v === "number" && LEVEL_NAME.test(k))) continue;
      present++;
      const key = String(v);
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (counts.size > MAX_VALUES) break;
    }
    if (counts.size < 2 || counts.size > MAX_VALUES || present < records.length / 2) continue;
    const parts = [...counts].sort((a, b) => b[1] - a[1]).map(([v, n]) => `${v.length > 30 ? `${v.slice(0, 29)}…` : v} ×${formatCount(n)}`);
    out.push({ line: `${label}${k}: ${parts.join(", ")}`, distinct: counts.size });
  }
  return out
    .sort((a, b) => a.distinct - b.distinct)
    .slice(0, max)
    .map((o) => o.line);
}

export type Standout = { index: number; text: string };

/** Value counts for `records` (label: where they are, e.g. "results[].") and the records that stand out, worst first. */
export function describeRecords(records: Obj[], label: string, maxStandouts = 3): { counts: string[]; standouts: Standout[] } {
  const skip = new Set([...sharedFields(records), ...countingFields(records)]);
  const ranked = records
    .map((r, i) => ({ r, i, bad: badness(r) }))
    .filter((x) => x.bad > 0)
    .sort((a, b) => b.bad - a.bad || a.i - b.i);
  const standouts: Standout[] = [];
  const seen = new Set<string>();
  for (const x of ranked) {
    if (standouts.length >= maxStandouts) break;
    const text = compact(x.r, skip);
    if (seen.has(text)) continue;
    seen.add(text);
    standouts.push({ index: x.i, text });
  }
  return { counts: valueCounts(records, label, 2), standouts };
}
