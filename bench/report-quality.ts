/**
 * BENCHMARKS.md sections for what a user feels beyond raw speed: pi's start and task overhead,
 * retrieval on real tool outputs (tuning and held-out sets, beside the peer), redaction, pruning.
 */
import { table } from "./markdown.ts";
import type { StartBench, StartRow } from "./pi-start.ts";
import type { PruneBenchResult } from "./prune/run.ts";
import type { RedactionBench } from "./redaction.ts";
import type { RetrievalResult, SideResult } from "./retrieval/run.ts";

const pass = (ok: boolean) => (ok ? "PASS" : "MISS");
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
const START_TARGET = { start: 100, task: 150 } as const;

const signedMs = (ms: number) => `${ms >= 0 ? "+" : ""}${Math.round(ms)} ms`;
const where = (r: StartRow) => `pi ${r.pi} on ${r.runtime === "bun" ? "Bun" : "Node 22"}${r.entry === "unbundled" ? " (dist/cli.js)" : ""}`;

export function piStartTargetRows(bench: StartBench): string[][] {
  return bench.rows.map((r) => [
    `${where(r)}: ${r.task === "start" ? "start (no tool call)" : "task (1,400-line bash)"} overhead`,
    `<= +${START_TARGET[r.task]} ms`,
    signedMs(r.overheadMs),
    pass(r.overheadMs <= START_TARGET[r.task]),
  ]);
}

export function piStartSection(bench: StartBench): string {
  const cache = bench.home;
  return [
    "## pi start and task overhead",
    "",
    "Plain pi against pi with the extension installed by `pi-sidecar install pi`, pair by pair with the order alternated " +
      "within pairs and an instant scripted model (bench/pi-start.ts). The overhead is the median of the per-pair differences, " +
      "after one warm-up pair. As users run pi: one HOME for every run with a user's Bun cache " +
      `(${cache.copiedFrom ? `a copy of ${cache.copiedFrom}, ` : ""}${cache.bunCachePackages} entries, holding ` +
      `${cache.cachedPis.length > 0 ? `a downloaded ${cache.cachedPis.join(", ")}` : "no downloaded pi"}), and one TMPDIR kept across all runs. ` +
      "`pi` is dist/bundle/cli.js (the command npm installs); dist/cli.js is the entry where Bun imports an extension natively first.",
    "",
    table(
      ["pi", "Runtime", "Task", "Pairs", "Plain pi", "With the sidecar", "Overhead", "CPU overhead"],
      bench.rows.map((r) => [
        `${r.pi}${r.entry === "unbundled" ? " (dist/cli.js)" : ""}`,
        r.runtime === "bun" ? "Bun" : "Node 22",
        r.task === "start" ? "prompt, no tool call" : "one bash call, 1,400 lines",
        String(r.pairs),
        `${Math.round(r.plainMs)} ms`,
        `${Math.round(r.sidecarMs)} ms`,
        signedMs(r.overheadMs),
        signedMs(r.cpuOverheadMs),
      ]),
    ),
  ].join("\n");
}

function sideRow(name: string, s: SideResult): string[] {
  return [
    name,
    String(s.questions),
    pct(s.recallAt1),
    pct(s.recallAt3),
    `${s.neighbour.at3}/${s.neighbour.n}`,
    `${Math.round(s.bytesMedian).toLocaleString("en-US")} B`,
    `${Math.round(s.bytesP90).toLocaleString("en-US")} B`,
  ];
}

export function retrievalTargetRows(tuning: RetrievalResult, holdout: RetrievalResult): string[][] {
  const beats = (r: RetrievalResult) => ("skipped" in r.peer ? null : r.ours.recallAt3 >= r.peer.recallAt3);
  const rows: string[][] = [];
  for (const [name, r] of [
    ["tuning", tuning],
    ["held-out", holdout],
  ] as const) {
    const b = beats(r);
    const peer = "skipped" in r.peer ? "peer skipped" : `peer ${pct(r.peer.recallAt3)}`;
    rows.push([
      `Retrieval on real outputs (${name}): answer in the top 3`,
      ">= the peer",
      `${pct(r.ours.recallAt3)} (${peer})`,
      b === null ? "n/a" : pass(b),
    ]);
  }
  return rows;
}

export function retrievalSection(tuning: RetrievalResult, holdout: RetrievalResult): string {
  const block = (title: string, r: RetrievalResult) => {
    const rows = [sideRow("pi-sidecar", r.ours)];
    if (!("skipped" in r.peer)) rows.push(sideRow(r.peer.name, r.peer));
    const misses = r.ours.misses.map((m) => `\`${m.id}\` (${JSON.stringify(m.query)})`).join(", ");
    return [
      `### ${title}: ${r.fixtures} real outputs of ${r.kinds} kinds`,
      "",
      table(
        ["Store", "Questions", "Answer at 1", "Answer in top 3", "Answer on a neighbour line (top 3)", "Median bytes shown", "p90 bytes"],
        rows,
      ),
      "",
      `Receipts alone answered ${r.receipts.answered} of ${r.receipts.questions} "what failed / how many" questions. ` +
        `Our misses: ${misses || "none"}.`,
    ].join("\n");
  };
  return [
    "## Retrieval on real tool outputs",
    "",
    "`search QUERY --source ID --limit 3` on outputs made by real tools (bench/retrieval/fixtures and holdout/, see their README). " +
      "A hit answers when it shows the answer line, by number, with its text. The held-out set was written before any search ran on it " +
      "and was never tuned on.",
    "",
    block("Tuning set", tuning),
    "",
    block("Held-out set", holdout),
  ].join("\n");
}

export function redactionTargetRows(r: RedactionBench): string[][] {
  const worst = Math.max(...r.worstCase.map((w) => w.ms));
  return [
    [
      "Redaction: realistic secrets stored verbatim",
      "0",
      `${r.leaked.alone + r.leaked.inNoise} of ${r.secretCases * 2}`,
      pass(r.leaked.alone + r.leaked.inNoise === 0),
    ],
    [
      "Redaction: harmless lines changed",
      "0",
      `${r.harmless.linesChanged} of ${r.harmless.linesChecked}`,
      pass(r.harmless.linesChanged === 0),
    ],
    ["Redaction: slowest pathological line (<= 1 MB)", "<= 1,000 ms", `${worst} ms`, pass(worst <= 1000)],
  ];
}

export function redactionSection(r: RedactionBench): string {
  return [
    "## Redaction",
    "",
    `${r.secretCases} secret cases of ${r.kinds} kinds (test/redact/secret-cases.ts, seed ${r.seed}), each alone and inside ~1 MB of ` +
      `harmless text: ${r.leaked.alone} leaked alone, ${r.leaked.inNoise} in noise. ${r.harmless.linesChecked.toLocaleString("en-US")} harmless ` +
      `secret-looking lines in ${r.harmless.documents} documents: ${r.harmless.linesChanged} changed. Overall ${r.overallMBps} MB/s.`,
    "",
    table(
      ["Input", "MB", "redact", "hasSecrets"],
      r.throughput.map((t) => [t.input, t.megabytes.toFixed(1), `${t.redactMBps} MB/s`, `${t.hasSecretsMBps} MB/s`]),
    ),
    "",
    table(
      ["Pathological line", "Time (best of 5)"],
      r.worstCase.map((w) => [w.input, `${w.ms} ms`]),
    ),
  ].join("\n");
}

export function pruneTargetRows(p: PruneBenchResult): string[][] {
  const t = p.targets;
  return [
    ["Pruning: tokens sent at turn 40, on/off", `<= ${t.turn40Ratio.target}`, t.turn40Ratio.value.toFixed(3), pass(t.turn40Ratio.met)],
    ["Pruning: growth turns 20-40, on/off", `<= ${t.growthRatio.target}`, t.growthRatio.value.toFixed(3), pass(t.growthRatio.met)],
    [
      "Pruning: prefix changes per 5 turns",
      `<= ${t.prefixChangesPer5Turns.target}`,
      t.prefixChangesPer5Turns.value.toFixed(2),
      pass(t.prefixChangesPer5Turns.met),
    ],
    [
      "Pruning: questions answered with the exact text",
      `${t.rehydrationExact.target}`,
      `${t.rehydrationExact.value}`,
      pass(t.rehydrationExact.met),
    ],
  ];
}

export function pruneSection(p: PruneBenchResult): string {
  const s = p.session;
  return [
    "## Context pruning (40 turns in real pi)",
    "",
    `bench/prune: a ${s.turns}-turn session in real pi (RPC mode, Node 22, scripted model) on hono's files with noisy commands, ` +
      `run with pruning (default configuration) and without. ${s.questions} questions, asked after ${s.changesBeforeTurn > 0 ? "the files changed on disk" : "pruning"}, ` +
      "are answered only from pruned results. Tokens are counted with o200k_base on what pi sent.",
    "",
    table(
      ["", "With pruning", "Without", "Ratio"],
      [
        ["Tokens sent at turn 40", p.turn40.on.toLocaleString("en-US"), p.turn40.off.toLocaleString("en-US"), p.turn40.ratio.toFixed(3)],
        [
          "Growth turns 20-40",
          p.growth20to40.on.toLocaleString("en-US"),
          p.growth20to40.off.toLocaleString("en-US"),
          p.growth20to40.ratio.toFixed(3),
        ],
        [
          "Tokens sent, all calls",
          p.on.tokensSentTotal.toLocaleString("en-US"),
          p.off.tokensSentTotal.toLocaleString("en-US"),
          (p.on.tokensSentTotal / p.off.tokensSentTotal).toFixed(3),
        ],
        ["Median turn", `${p.on.turnMsMedian} ms`, `${p.off.turnMsMedian} ms`, ""],
        ["Prefix changes", String(p.on.prefixChanges.length), String(p.off.prefixChanges.length), ""],
      ],
    ),
    "",
    `The on/off ratio over turns 31-40 ranges ${p.ratioTurns31to40.min.toFixed(3)}-${p.ratioTurns31to40.max.toFixed(3)} ` +
      `(highest at turn ${p.ratioTurns31to40.maxAtTurn}, just before a batch): pruning works in batches so the prompt cache survives. ` +
      `Rehydration: ${p.rehydration.exact} of ${p.rehydration.asked} answers exact, ${p.rehydration.changedOnDisk} of them about files changed on disk since.`,
  ].join("\n");
}
