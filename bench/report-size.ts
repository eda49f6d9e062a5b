/** BENCHMARKS.md section 2: database bytes per input byte, by structure, beside the floor. */
import { mb, ratio, table } from "./markdown.ts";
import { headline, kindName, type ReportInput, TARGETS } from "./report-input.ts";

export function sizeSection(input: ReportInput): string {
  const per = (b: number, inputBytes: number) => ratio(b / inputBytes);
  const rows = input.capture.map((r) => [
    kindName(r),
    r.sizeLabel,
    mb(r.inputBytes),
    mb(r.dbBytes),
    `**${per(r.dbBytes, r.inputBytes)}**`,
    per(r.dbParts.chunks, r.inputBytes),
    per(r.dbParts.words, r.inputBytes),
    per(r.dbParts.trigrams, r.inputBytes),
    mb(r.floorBytes),
    per(r.floorBytes, r.inputBytes),
  ]);
  const s = input.store;
  rows.push([
    "search store (mix)",
    mb(s.inputBytes),
    mb(s.inputBytes),
    mb(s.dbBytes),
    `**${per(s.dbBytes, s.inputBytes)}**`,
    per(s.dbParts.chunks, s.inputBytes),
    per(s.dbParts.words, s.inputBytes),
    per(s.dbParts.trigrams, s.inputBytes),
    "",
    "",
  ]);
  const build = headline(input.capture, "build");
  const req = headline(input.capture, "request");
  const worstRatio = Math.max(build.dbBytes / build.inputBytes, req.dbBytes / req.inputBytes, s.dbBytes / s.inputBytes);
  const pass = worstRatio <= TARGETS.dbRatio;
  return [
    "## 2. Database size",
    "",
    "File size after `PRAGMA wal_checkpoint(TRUNCATE)`, per input byte. The split by structure comes from the `dbstat` " +
      "virtual table (pages of the chunks table and its unique index, of each full-text index's shadow tables).",
    "",
    table(
      ["Log", "Size", "Input", "Database", "DB / input", "chunks table", "words index", "trigram index", "Floor DB", "Floor / input"],
      rows,
    ),
    "",
    `**What this means.** The database holds ${per(build.dbBytes, build.inputBytes)} the input for the build log and ` +
      `${per(req.dbBytes, req.inputBytes)} for the request log, and ${per(s.dbBytes, s.inputBytes)} for the ${mb(s.inputBytes)} mixed store: ` +
      `${pass ? `within the ${TARGETS.dbRatio}x target` : `**over the ${TARGETS.dbRatio}x target**`} (context-mode: about 11x). ` +
      `The text itself (chunks table, the floor) is ${per(build.floorBytes, build.inputBytes)} of the input: page and row overhead, ` +
      "no compression. Both full-text indexes are external-content (they do not store the text again), so they add " +
      `${per(build.dbParts.words + build.dbParts.trigrams, build.inputBytes)} (build log) to ` +
      `${per(req.dbParts.words + req.dbParts.trigrams, req.inputBytes)} (request log, many distinct UUID terms).`,
  ].join("\n");
}
