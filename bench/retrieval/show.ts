/**
 * What our search shows for some questions of a retrieval set (for looking at misses):
 *
 *   bun bench/retrieval/show.ts SET [ID...|--misses]
 */
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { createScratch } from "../temp.ts";
import { loadFixture, loadQuestions, type QuestionSet } from "./run.ts";

const [set = "tuning", ...rest] = process.argv.slice(2) as [QuestionSet, ...string[]];
const questions = loadQuestions(set);
const scratch = createScratch();
try {
  const config = defaultConfig({ HOME: scratch.dir });
  config.db = join(scratch.dir, "show.db");
  const engine = createEngine({ config, calls: TOOL_CALLS, background: "inline" });
  const ids = new Map<string, string>();
  const wanted = rest.includes("--misses") ? questions : questions.filter((q) => rest.length === 0 || rest.includes(q.id));
  for (const f of new Set(wanted.map((q) => q.fixture))) {
    const r = await engine.capture({ text: loadFixture(f, set), tool: "bash", force: true, label: f, project: scratch.dir });
    if (r.stored) ids.set(f, r.sourceId);
  }
  for (const q of wanted) {
    const r = await engine.search({ query: q.query, source: ids.get(q.fixture), limit: 3 });
    const hits = r.ok ? r.hits : [];
    const rank = hits.findIndex((h) => h.lines.some((l) => q.answer.lines.includes(l.line) && l.text.includes(q.answer.text)));
    if (rest.includes("--misses") && rank >= 0) continue;
    console.log(
      `\n===== ${q.id} ${JSON.stringify(q.query)} -> lines ${q.answer.lines.join(",")} ${JSON.stringify(q.answer.text)}: ${rank < 0 ? "MISS" : `rank ${rank + 1}`}`,
    );
    console.log(r.ok ? r.text : r.message);
  }
  await engine.close();
} finally {
  scratch.remove();
}
