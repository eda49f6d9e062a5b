/** BENCHMARKS.md section: database bytes per input byte, by structure, beside context-mode's. */
import type { CaptureBench, CaptureRow } from "./capture.ts";
import { mb, ratio, table, verdict } from "./markdown.ts";
import { TARGETS } from "./report-input.ts";
import type { StoreParts } from "./schemas.ts";

/** What the size section needs of the search store. */
export type StoreSize = { inputBytes: number; dbBytes: number; parts: StoreParts };

const kindName = (r: CaptureRow) => (r.kind === "build" ? "(a) build/test log" : "(b) request log, UUID per line");
const per = (bytes: number, input: number) => ratio(bytes / input);

/** Rows for the targets table: every 10 MiB capture (the largest size measured) and the search store. */
export function sizeTargetRows(bench: CaptureBench, store: StoreSize): string[][] {
  const largest = Math.max(...bench.rows.map((r) => r.inputBytes));
  const rows = bench.rows
    .filter((r) => r.inputBytes === largest || r.sizeLabel === "10 MiB")
    .map((r) => {
      const v = r.ours.dbBytes / r.inputBytes;
      return [`Database size, ${r.sizeLabel} ${kindName(r)}`, `<= ${TARGETS.dbRatio}x input`, ratio(v), verdict(v <= TARGETS.dbRatio)];
    });
  const v = store.dbBytes / store.inputBytes;
  rows.push([
    `Database size, ${mb(store.inputBytes)} search store`,
    `<= ${TARGETS.dbRatio}x input`,
    ratio(v),
    verdict(v <= TARGETS.dbRatio),
  ]);
  return rows;
}

export function sizeSection(bench: CaptureBench, store: StoreSize): string {
  const rows = bench.rows.map((r) => [
    kindName(r),
    r.sizeLabel,
    mb(r.inputBytes),
    mb(r.ours.dbBytes),
    `**${per(r.ours.dbBytes, r.inputBytes)}**`,
    per(r.ours.parts.text, r.inputBytes),
    per(r.ours.parts.words, r.inputBytes),
    per(r.ours.parts.idents, r.inputBytes),
    per(r.ours.parts.vocabulary, r.inputBytes),
    per(r.ours.parts.other, r.inputBytes),
    r.peer ? mb(r.peer.dbBytes) : "not run",
    r.peer ? per(r.peer.dbBytes, r.inputBytes) : "",
  ]);
  rows.push([
    "search store (mix)",
    mb(store.inputBytes),
    mb(store.inputBytes),
    mb(store.dbBytes),
    `**${per(store.dbBytes, store.inputBytes)}**`,
    per(store.parts.text, store.inputBytes),
    per(store.parts.words, store.inputBytes),
    per(store.parts.idents, store.inputBytes),
    per(store.parts.vocabulary, store.inputBytes),
    per(store.parts.other, store.inputBytes),
    "",
    "",
  ]);
  const worst = Math.max(...[...bench.rows.map((r) => r.ours.dbBytes / r.inputBytes), store.dbBytes / store.inputBytes]);
  const large = bench.rows.filter((r) => r.sizeLabel === "10 MiB");
  const shown = large.length > 0 ? large : bench.rows;
  const peerRatios = shown.filter((r) => r.peer).map((r) => r.peer!.dbBytes / r.inputBytes);
  const small = bench.rows.filter((r) => r.sizeLabel === "1 MiB");
  return [
    "## 2. Database size",
    "",
    "File size after `PRAGMA wal_checkpoint(TRUNCATE)`, once everything queued is indexed and counted (`engine.settle()`), per input byte; " +
      "the capture rows are the same runs as section 1 (each database also holds the 16 KiB warm-up text). The split by structure comes " +
      "from the `dbstat` virtual table: the stored text (the chunks table), the word index (`chunks_words`, contentless FTS5 over the text " +
      "and each chunk's names: it does not store the text again), the identifier index (`chunk_idents`, a contentless trigram index over identifier-like tokens " +
      "only), the vocabulary, and everything else (sources, blobs, queues, the other features' tables, the schema). context-mode's size " +
      "is its own database after a checkpoint (its store never checkpoints, so on disk it is about twice that).",
    "",
    table(
      [
        "Log",
        "Size",
        "Input",
        "Database",
        "DB / input",
        "text",
        "word index",
        "identifier index",
        "vocabulary",
        "other",
        "context-mode DB",
        "context-mode / input",
      ],
      rows,
    ),
    "",
    `**What this means.** At most ${ratio(worst)} the input here: ` +
      `${worst <= TARGETS.dbRatio ? `within the ${TARGETS.dbRatio}x target` : `**over the ${TARGETS.dbRatio}x target**`}` +
      (peerRatios.length > 0
        ? `; context-mode's database is ${peerRatios.map((x) => ratio(x)).join(" and ")} the same ${shown[0]!.sizeLabel} inputs.`
        : ".") +
      ` A database with the schema and nothing stored is ${mb(bench.emptyDbBytes)} (the "other" column), which weighs on the ` +
      `${small.length > 0 ? "1 MiB rows" : "small rows"} and not on the large ones. The stored text alone is ${per(shown[0]!.ours.parts.text, shown[0]!.inputBytes)} the input ` +
      `(${shown[0]!.sizeLabel} ${kindName(shown[0]!)}: page and row overhead, no compression); the indexes add ` +
      `${shown.map((r) => `${per(r.ours.parts.words + r.ours.parts.idents + r.ours.parts.vocabulary, r.inputBytes)} (${r.kind})`).join(" and ")}.`,
  ].join("\n");
}
