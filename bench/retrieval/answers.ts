/**
 * Every question's whole search answer (the text the model reads, and each hit's lines), as
 * JSON: two builds' outputs diffed show whether a change altered what search returns. The blind
 * set is never read.
 *
 *   bun bench/retrieval/answers.ts [--limit 3] > answers.json
 */
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { createScratch } from "../temp.ts";
import { hasQuestionSet, loadFixture, loadQuestions, type QuestionSet } from "./run.ts";

const SETS: QuestionSet[] = ["tuning", "holdout", "dev", "wave3", "wave3b", "wave3c", "fresh"];
const at = process.argv.indexOf("--limit");
const limit = at >= 0 ? Number(process.argv[at + 1]) : 3;

const scratch = createScratch();
const out: Record<string, { query: string; mode: string; hits: { line: number; text: string }[][]; text: string }> = {};
try {
  for (const set of SETS.filter(hasQuestionSet)) {
    const config = defaultConfig({ HOME: scratch.dir });
    config.db = join(scratch.dir, `answers-${set}.db`);
    const engine = createEngine({ config, calls: TOOL_CALLS, background: "inline" });
    const questions = loadQuestions(set);
    const ids = new Map<string, string>();
    for (const f of new Set(questions.map((q) => q.fixture))) {
      const r = await engine.capture({ text: loadFixture(f, set), tool: "bash", force: true, label: f, project: scratch.dir });
      if (r.stored) ids.set(f, r.sourceId);
    }
    for (const q of questions) {
      const r = await engine.search({ query: q.query, source: ids.get(q.fixture), limit });
      // Handles are random: each is written as its fixture's name, so two runs compare.
      const named = (s: string) => s.replaceAll(ids.get(q.fixture) ?? "\0", `<${q.fixture}>`);
      out[`${set}/${q.id}`] = r.ok
        ? {
            query: q.query,
            mode: r.mode,
            hits: r.hits.map((h) => h.lines.map((l) => ({ line: l.line, text: l.text }))),
            text: named(r.text),
          }
        : { query: q.query, mode: "error", hits: [], text: r.message };
    }
    await engine.close();
  }
  console.log(JSON.stringify(out, null, 1));
} finally {
  scratch.remove();
}
