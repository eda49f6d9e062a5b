/** BENCHMARKS.md's session section: the 24-turn session in real pi, per pi version and configuration. */
import { table } from "../markdown.ts";
import type { RunSummary, SessionBenchResult } from "./run.ts";

const pass = (ok: boolean) => (ok ? "PASS" : "MISS");
const n = (x: number) => x.toLocaleString("en-US");

const TARGET_NAMES: Record<string, string> = {
  tokensVsPlain: "Session: tokens sent with pi-sidecar vs plain pi",
  answersVsPlain: "Session: answers right with pi-sidecar vs plain pi",
  prefixChangesPer5Turns: "Session: prefix changes per 5 turns",
  rehydrationExact: "Session: answers through a pruning pointer, exact",
};

export function sessionTargetRows(r: SessionBenchResult): string[][] {
  return Object.entries(r.targets).map(([k, t]) => [
    `${TARGET_NAMES[k] ?? k}${t.note ? ` (${t.note})` : ""}`,
    k === "answersVsPlain" ? `>= ${t.target}` : k === "rehydrationExact" ? `${t.target}` : `<= ${t.target}`,
    k === "answersVsPlain" ? `${t.value} of 10` : String(t.value),
    pass(t.met),
  ]);
}

const reads = (r: RunSummary) => `${r.reads.unchanged + r.reads.unchangedRange} / ${r.reads.diff} / ${r.reads.full}`;

export function sessionSection(r: SessionBenchResult): string {
  const s = r.session;
  const plainOf = (run: RunSummary) => r.runs.find((x) => x.pi === run.pi && x.variant === "plain");
  const rows = r.runs.map((run) => {
    const plain = plainOf(run);
    return [
      run.pi,
      run.variant,
      n(run.tokensSent),
      plain ? (run.tokensSent / plain.tokensSent).toFixed(3) : "",
      n(run.lastRequest),
      n(run.uncached),
      n(run.cacheCost),
      String(run.modelCalls),
      String(run.prefixChanges),
      reads(run),
      `${run.answersRight} of ${run.questions.length}`,
    ];
  });
  const versions = [...new Set(r.runs.map((x) => x.pi))];
  const variants = [...new Set(r.addedDefinitions.map((d) => d.variant))];
  const defs = variants.map((v) => [
    v,
    ...versions.map((pi) => {
      const d = r.addedDefinitions.find((x) => x.pi === pi && x.variant === v);
      return d ? n(d.tokens) : "";
    }),
  ]);
  return [
    `## Session benchmark (${s.turns} turns in real pi)`,
    "",
    `bench/prune: a ${s.turns}-prompt session in real pi (RPC mode, Node 22, scripted model) on hono's tree with a git history: ` +
      `${s.workTurns} turns of work (${s.workToolCalls} tool calls: reads and re-reads, grep and find, the 264 KB lockfile, the git log, a failing type-check run twice, an edit read back), ` +
      `then ${s.questions} questions answerable only from earlier results (the project changed on disk first). The scripted model answers from what it sees, ` +
      "follows receipts (context_search), pruning pointers (context_get) and, when pi cut an output, pi's full-output file (grep). " +
      "Each pi version runs plain, with the sidecar's default configuration, and with one part off at a time. Tokens: o200k_base over what pi sent " +
      "(system prompt, tool definitions, messages). Ideal cache: each request's part that is byte-identical to the previous request's is a cache hit; " +
      "cost counts a hit at 0.1 of an input token.",
    "",
    table(
      [
        "pi",
        "Configuration",
        "Tokens sent",
        "vs plain",
        "Last request",
        "Ideal cache: uncached",
        "Ideal cache: cost",
        "Model calls",
        "Prefix changes",
        "Re-reads: unchanged / diff / text",
        "Answers right",
      ],
      rows,
    ),
    "",
    ...(r.pruningOnOff
      ? [
          `Pruning on/off (default vs pruning off, newest pi): the last turn's request ${r.pruningOnOff.lastTurn.toFixed(3)}, ` +
            `growth over turns ${r.pruningOnOff.turns[0]}-${r.pruningOnOff.turns[1]} ${r.pruningOnOff.growth.toFixed(3)}. ` +
            "Re-reads: a read whose earlier read was pruned returns the text (`readcache.afterPrune` text); pinning it or pointing at the stored text cost more (the `afterPrune` rows).",
          "",
        ]
      : []),
    "Tool definitions and system prompt pi-sidecar adds to every request, before any tool runs (tokens, o200k; the first request of each run against plain pi's, " +
      "so a token or two is the temp folder's name; in hono and in a TypeScript project the kota tools are on, in a folder with no code they are not):",
    "",
    table(["Configuration", ...versions.map((v) => `pi ${v}`)], defs),
    ...(r.addedParts.length > 0 ? ["", partsTable(r, versions)] : []),
  ].join("\n");
}

/** The default configuration in a TypeScript project, part by part. */
function partsTable(r: SessionBenchResult, versions: readonly string[]): string {
  const names = [...new Set(r.addedParts.map((p) => p.part))];
  const rows = names.map((part) => [
    part,
    ...versions.map((pi) => {
      const p = r.addedParts.find((x) => x.pi === pi && x.part === part);
      return p ? n(p.tokens) : "";
    }),
  ]);
  return [
    "The default configuration in a TypeScript project, part by part (each definition as pi sends it, `{name, description, parameters}`, counted alone; " +
      "the system prompt row is what the sidecar adds to pi's):",
    "",
    table(["Part", ...versions.map((v) => `pi ${v}`)], rows),
  ].join("\n");
}
