/**
 * What a tool output is and what happened in it: the kind (npm, tsc, mocha, ...), a short summary
 * (counts, what failed, exit codes) and the important lines scored by what they are. Unknown kinds
 * get no summary and the generic failure lines. Cheap on huge outputs: see text-view.ts.
 */
import { genericFindings } from "./generic.ts";
import { distinct, type Finding } from "./line-score.ts";
import { fileListing } from "./recognise-files.ts";
import { bunTest, jest, mocha, vitest } from "./recognise-js-tests.ts";
import { json } from "./recognise-json.ts";
import { junit } from "./recognise-junit.ts";
import { eslint, tsc } from "./recognise-lint.ts";
import { ndjson } from "./recognise-ndjson.ts";
import { docker, kubectl } from "./recognise-ops.ts";
import { npm, pnpm, yarn } from "./recognise-packages.ts";
import { apt, dpkg, gitLog } from "./recognise-system.ts";
import { cargoBuild, cargoTest, goTest, pytest } from "./recognise-tests.ts";
import type { Recogniser } from "./recogniser.ts";
import { createTextView, isBlank, type TextView } from "./text-view.ts";

export type ImportantLine = Finding;
export type OutputAnalysis = { kind: string | null; summary: string[]; important: ImportantLine[] };

/** In order: the first whose detect() holds wins (test runners before the package manager that ran them). */
export const RECOGNISERS: Recogniser[] = [
  // JSON lines before JSON: a big log of one object a line is not parsed as one document.
  ndjson,
  json,
  junit,
  mocha,
  jest,
  vitest,
  bunTest,
  pytest,
  cargoTest,
  goTest,
  tsc,
  eslint,
  cargoBuild,
  pnpm,
  yarn,
  npm,
  gitLog,
  dpkg,
  apt,
  kubectl,
  docker,
  // Last: any output whose every line is a name.
  fileListing,
];

const MAX_IMPORTANT = 12;
const MAX_SUMMARY = 16;

export function detectOutputKind(view: TextView): Recogniser | null {
  return RECOGNISERS.find((r) => r.detect(view)) ?? null;
}

function byScore(findings: Finding[]): Finding[] {
  const best = new Map<number, Finding>();
  for (const f of findings) {
    if (isBlank(f.text)) continue;
    const seen = best.get(f.line);
    if (!seen || seen.score < f.score) best.set(f.line, f);
  }
  return distinct([...best.values()].sort((a, b) => b.score - a.score || a.line - b.line)).slice(0, MAX_IMPORTANT);
}

export function analyzeView(view: TextView): OutputAnalysis {
  const recogniser = detectOutputKind(view);
  if (!recogniser) return { kind: null, summary: [], important: genericFindings(view, MAX_IMPORTANT) };
  const { summary, important } = recogniser.analyze(view);
  // A recogniser that found no lines still gets the generic failure lines.
  const extra =
    important.length === 0 && !recogniser.listing
      ? genericFindings(view, MAX_IMPORTANT).map((f) => ({ ...f, score: Math.min(f.score, 3) }))
      : [];
  return {
    kind: recogniser.kind,
    summary: summary.filter((s) => s.trim() !== "").slice(0, MAX_SUMMARY),
    important: byScore([...important, ...extra]),
  };
}

export function analyzeOutput(text: string): OutputAnalysis {
  return analyzeView(createTextView(text));
}
