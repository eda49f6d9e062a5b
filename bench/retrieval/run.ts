/**
 * Retrieval on real tool outputs (fixtures/, see its README): every fixture stored in a fresh
 * pi-sidecar store and in context-mode's store, then every question's query searched in its
 * source with 3 hits. A hit of ours answers when it shows an answer line (by number) with the
 * answer's text on it; a peer hit (no line numbers) when its text holds the answer's text.
 * Receipts answer a "what failed / which / how many" question when the answer's text is in them.
 *
 *   bun bench/retrieval/run.ts [--no-peer]        every set that is there, the blind set first; JSON
 *   bun bench/retrieval/run.ts [--no-peer] (--tuning | --holdout | --dev | --wave3 | --wave3b | --wave3c | --fresh | --blind)      one set
 *
 * Sets: the tuning set (fixtures/ and questions.json here); `--holdout` (holdout/: other tools,
 * written before any search ran on them, tuned on since); `--dev` (dev/: outputs of the kinds the
 * issue about unseen outputs names, made for the retrieval work and tuned on); `--wave3` (wave3/: the
 * first blind set, retrieval-1, declared tuning data once read); `--wave3b` (wave3b/: the second blind
 * set, retrieval-2, tuning data since); `--wave3c` (wave3c/: the blind set retrieval-10, tuning data
 * since the eleventh session); `--fresh` (fresh/: tools no other set has, written for the
 * eighth retrieval round, tuned on); `--blind` (blind/:
 * written by someone who never read src/ or the other sets, never tuned on; absent until copied in).
 * Every set has the same layout: fixtures/ and questions.json.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { isContextModeSkipped, openContextMode } from "../peers/context-mode.ts";
import { median, percentile } from "../stats-math.ts";
import type { Scratch } from "../temp.ts";

export type Question = {
  id: string;
  fixture: string;
  style: string;
  query: string;
  answer: { lines: number[]; text: string };
  neighbour: boolean;
  receiptQuestion: boolean;
};

type Outcome = { id: string; style: string; neighbour: boolean; rank: number | null; bytes: number; lenientRank: number | null };

export type SideResult = {
  name: string;
  questions: number;
  recallAt1: number;
  recallAt3: number;
  /** Ours also scored as the peer is (answer text anywhere in a hit). */
  lenientRecallAt3?: number;
  byStyle: Record<string, { n: number; at3: number }>;
  neighbour: { n: number; at3: number };
  bytesMedian: number;
  bytesP90: number;
  misses: { id: string; query: string }[];
};

export type RetrievalResult = {
  fixtures: number;
  kinds: number;
  ours: SideResult;
  peer: SideResult | { skipped: string };
  receipts: { questions: number; answered: number; ids: string[] };
};

/** The tuning set (this folder) or one of the sets in its subfolders. */
export type QuestionSet = "tuning" | "holdout" | "dev" | "wave3" | "wave3b" | "wave3c" | "fresh" | "blind";
export const QUESTION_SETS: readonly QuestionSet[] = ["blind", "tuning", "holdout", "dev", "wave3", "wave3b", "wave3c", "fresh"];
const dirOf = (set: QuestionSet) => (set === "tuning" ? import.meta.dir : join(import.meta.dir, set));

/** Whether the set is there (the blind set is copied in by whoever wrote it; until then it is skipped). */
export function hasQuestionSet(set: QuestionSet): boolean {
  return existsSync(join(dirOf(set), "questions.json")) && existsSync(join(dirOf(set), "fixtures"));
}

export function loadFixture(name: string, set: QuestionSet = "tuning"): string {
  const raw = readFileSync(join(dirOf(set), "fixtures", name));
  return new TextDecoder().decode(name.endsWith(".gz") ? gunzipSync(raw) : raw);
}

/**
 * A set's questions, checked: each names a fixture that is there, a query, and answer lines (1-based
 * numbers) with the answer's text; style, neighbour and receiptQuestion are optional.
 */
export function loadQuestions(set: QuestionSet = "tuning"): Question[] {
  const file = join(dirOf(set), "questions.json");
  const raw: unknown = JSON.parse(readFileSync(file, "utf8"));
  if (!Array.isArray(raw)) throw new Error(`${file}: wants a JSON array of questions`);
  return raw.map((q: Partial<Question> | null, i): Question => {
    const where = `${file}: question ${i + 1}${q?.id ? ` (${q.id})` : ""}`;
    if (!q || typeof q.query !== "string" || typeof q.fixture !== "string") throw new Error(`${where} wants "query" and "fixture" strings`);
    if (!existsSync(join(dirOf(set), "fixtures", q.fixture))) throw new Error(`${where}: fixtures/${q.fixture} is not there`);
    const a = q.answer;
    if (!a || typeof a.text !== "string" || !Array.isArray(a.lines) || !a.lines.every((n) => Number.isInteger(n) && n > 0))
      throw new Error(`${where} wants "answer": { "lines": [1-based line numbers], "text": "what an answer line holds" }`);
    return {
      id: q.id ?? `${set}-${i + 1}`,
      fixture: q.fixture,
      style: q.style ?? "any",
      query: q.query,
      answer: { lines: a.lines, text: a.text },
      neighbour: q.neighbour === true,
      receiptQuestion: q.receiptQuestion === true,
    };
  });
}

/** The scoring rule: a hit answers when one of its lines is an answer line (by number) holding the answer's text. */
export function showsAnswer(q: Question, hit: { lines: { line: number; text: string }[] }): boolean {
  return hit.lines.some((l) => q.answer.lines.includes(l.line) && l.text.includes(q.answer.text));
}

function summarize(name: string, outcomes: Outcome[], misses: { id: string; query: string }[], lenient = false): SideResult {
  const at = (k: number, o: Outcome[], key: "rank" | "lenientRank" = "rank") => o.filter((x) => x[key] !== null && x[key]! < k).length;
  const byStyle: SideResult["byStyle"] = {};
  for (const o of outcomes) {
    byStyle[o.style] ??= { n: 0, at3: 0 };
    const s = byStyle[o.style]!;
    s.n++;
    if (o.rank !== null && o.rank < 3) s.at3++;
  }
  const nb = outcomes.filter((o) => o.neighbour);
  const bytes = outcomes.map((o) => o.bytes);
  return {
    name,
    questions: outcomes.length,
    recallAt1: at(1, outcomes) / outcomes.length,
    recallAt3: at(3, outcomes) / outcomes.length,
    ...(lenient ? { lenientRecallAt3: at(3, outcomes, "lenientRank") / outcomes.length } : {}),
    byStyle,
    neighbour: { n: nb.length, at3: at(3, nb) },
    bytesMedian: median(bytes),
    bytesP90: percentile(bytes, 90),
    misses,
  };
}

async function ours(scratch: Scratch, questions: Question[], fixtures: string[], set: QuestionSet) {
  const config = defaultConfig({ HOME: scratch.dir });
  config.db = join(scratch.dir, `retrieval-${set}.db`);
  const engine = createEngine({ config, calls: TOOL_CALLS, background: "inline" });
  const ids = new Map<string, string>();
  const receipts = new Map<string, string>();
  for (const f of fixtures) {
    const r = await engine.capture({ text: loadFixture(f, set), tool: "bash", force: true, label: f, project: scratch.dir });
    if (!r.stored) throw new Error(`${f} was not stored`);
    ids.set(f, r.sourceId);
    receipts.set(f, r.receipt);
  }
  const outcomes: Outcome[] = [];
  const misses: { id: string; query: string }[] = [];
  for (const q of questions) {
    const r = await engine.search({ query: q.query, source: ids.get(q.fixture), limit: 3 });
    const hits = r.ok ? r.hits : [];
    const rank = hits.findIndex((h) => showsAnswer(q, h));
    const lenient = hits.findIndex((h) => h.text.includes(q.answer.text));
    outcomes.push({
      id: q.id,
      style: q.style,
      neighbour: q.neighbour,
      rank: rank < 0 ? null : rank,
      lenientRank: lenient < 0 ? null : lenient,
      bytes: r.ok ? Buffer.byteLength(r.text) : 0,
    });
    if (rank < 0 || rank >= 3) misses.push({ id: q.id, query: q.query });
  }
  await engine.close();
  const receiptQs = questions.filter((q) => q.receiptQuestion);
  const answered = receiptQs.filter((q) => receipts.get(q.fixture)!.includes(q.answer.text)).map((q) => q.id);
  return {
    side: summarize("pi-sidecar", outcomes, misses, true),
    receipts: { questions: receiptQs.length, answered: answered.length, ids: answered },
  };
}

async function peer(
  scratch: Scratch,
  questions: Question[],
  fixtures: string[],
  set: QuestionSet,
): Promise<SideResult | { skipped: string }> {
  if (isContextModeSkipped()) return { skipped: "BENCH_SKIP_PEERS is set" };
  const store = await openContextMode(join(scratch.dir, `context-mode-${set}`), { toolLimit: false });
  try {
    const ids = new Map<string, string>();
    for (const f of fixtures) ids.set(f, (await store.index(loadFixture(f, set), f)).sourceId);
    const outcomes: Outcome[] = [];
    const misses: { id: string; query: string }[] = [];
    for (const q of questions) {
      const r = await store.search(q.query, { source: ids.get(q.fixture), limit: 3 });
      const rank = r.hits.findIndex((h) => h.text.includes(q.answer.text));
      outcomes.push({
        id: q.id,
        style: q.style,
        neighbour: q.neighbour,
        rank: rank < 0 ? null : rank,
        lenientRank: null,
        bytes: Buffer.byteLength(r.raw),
      });
      if (rank < 0) misses.push({ id: q.id, query: q.query });
    }
    return summarize(`context-mode ${store.version}`, outcomes, misses);
  } finally {
    await store.close();
  }
}

export async function benchRetrieval(
  scratch: Scratch,
  options: { peer: boolean; set?: QuestionSet } = { peer: true },
): Promise<RetrievalResult> {
  const set = options.set ?? "tuning";
  const questions = loadQuestions(set);
  const fixtures = [...new Set(questions.map((q) => q.fixture))];
  const mine = await ours(scratch, questions, fixtures, set);
  const kinds = new Set(fixtures.map((f) => f.replace(/(\.[a-z0-9]+)*$/i, "").replace(/-.*$/, ""))).size;
  return {
    fixtures: fixtures.length,
    kinds,
    ours: mine.side,
    peer: options.peer ? await peer(scratch, questions, fixtures, set) : { skipped: "--no-peer" },
    receipts: mine.receipts,
  };
}

/** One line per set: ours and the peer, top 3 and median shown, receipts; held-out figures first. */
function summaryLine(set: QuestionSet, r: RetrievalResult): string {
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  const side = (s: SideResult) =>
    `${s.name} ${pct(s.recallAt3)} top 3 (${Math.round(s.recallAt3 * s.questions)}/${s.questions}), median shown ${Math.round(s.bytesMedian)} B`;
  const peerText = "skipped" in r.peer ? `peer skipped (${r.peer.skipped})` : side(r.peer);
  return `${set}: ${r.fixtures} outputs, ${r.kinds} kinds; ${side(r.ours)}; ${peerText}; receipts ${r.receipts.answered}/${r.receipts.questions}`;
}

if (import.meta.main) {
  const { createScratch } = await import("../temp.ts");
  const scratch = createScratch();
  try {
    const chosen = QUESTION_SETS.find((s) => process.argv.includes(`--${s}`));
    if (chosen && !hasQuestionSet(chosen)) {
      console.error(`No ${chosen} set: ${join(dirOf(chosen), "questions.json")} and fixtures/ are not there.`);
      process.exit(1);
    }
    // Without a set named: every set that is there, the blind set first (skipped when absent).
    const sets = chosen ? [chosen] : QUESTION_SETS.filter(hasQuestionSet);
    if (!chosen && !hasQuestionSet("blind")) console.error(`No blind set in ${dirOf("blind")} (questions.json and fixtures/): skipped.`);
    const results: Partial<Record<QuestionSet, RetrievalResult>> = {};
    for (const set of sets) {
      results[set] = await benchRetrieval(scratch, { peer: !process.argv.includes("--no-peer"), set });
      console.error(summaryLine(set, results[set]!));
    }
    console.log(JSON.stringify(chosen ? results[chosen] : results, null, 2));
  } finally {
    scratch.remove();
  }
}
