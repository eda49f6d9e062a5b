/**
 * JSON lines (NDJSON: one JSON object a line, as structured loggers such as pino, bunyan, zap and
 * `go test -json` write): how many records, the counts of their low-cardinality fields (a level,
 * an action) and the records that stand out (errors), shown by their own fields.
 */
import { formatCount } from "../../units.ts";
import { describeRecords, isObj } from "./json-records.ts";
import { SCORE } from "./line-score.ts";
import { plural, type Recogniser } from "./recogniser.ts";
import type { TextView } from "./text-view.ts";

/** Records read at most: enough for the counts of any log a receipt is written for, bounded for a huge one. */
const MAX_RECORDS = 50_000;
const MAX_LINE = 64 * 1024;
const HEAD_RECORDS = 5;

function parseLine(line: string): Record<string, unknown> | null {
  const t = line.trim();
  if (!t.startsWith("{") || !t.endsWith("}") || t.length > MAX_LINE) return null;
  try {
    const v: unknown = JSON.parse(t);
    return isObj(v) ? v : null;
  } catch {
    return null;
  }
}

export const ndjson: Recogniser = {
  kind: "json-lines",
  listing: true,
  detect(v: TextView) {
    const lines = v.head().filter((l) => l.text.trim() !== "");
    if (v.lineCount < 3 || lines.length < 3) return false;
    // The head window clips long lines: the first lines' raw text decides.
    let offset = 0;
    for (let i = 0; i < Math.min(HEAD_RECORDS, v.lineCount); i++) {
      const nl = v.text.indexOf("\n", offset);
      const line = v.text.slice(offset, nl === -1 ? v.text.length : nl);
      if (line.trim() !== "" && !parseLine(line)) return false;
      if (nl === -1) break;
      offset = nl + 1;
    }
    return true;
  },
  analyze(v) {
    const records: Record<string, unknown>[] = [];
    const lineOf: number[] = [];
    let other = 0;
    let offset = 0;
    let read = 0;
    for (let line = 1; offset <= v.text.length && records.length < MAX_RECORDS; line++) {
      const nl = v.text.indexOf("\n", offset);
      const text = v.text.slice(offset, nl === -1 ? v.text.length : nl);
      const r = parseLine(text);
      read = line;
      if (r) {
        records.push(r);
        lineOf.push(line);
      } else if (text.trim() !== "") other++;
      offset = nl === -1 ? v.text.length + 1 : nl + 1;
      if (nl === -1) break;
    }
    const { counts, standouts } = describeRecords(records, "");
    const what = `${plural(records.length, "JSON record")}${other > 0 ? ` and ${plural(other, "other line")}` : ""}`;
    // Past the cap the counts are of the first lines only: say so.
    const summary = [read < v.lineCount ? `${what} in the first ${plural(read, "line")} of ${formatCount(v.lineCount)}` : what, ...counts];
    summary.push(...standouts.map((s) => `line ${lineOf[s.index]}: ${s.text}`));
    // The worst record's line: where the receipt's "or:" call looks.
    const important = standouts
      .slice(0, 1)
      .map((s) => ({ line: lineOf[s.index]!, text: JSON.stringify(records[s.index]), score: SCORE.errorLine }));
    return { summary, important };
  },
};
