/**
 * Receipts alone, per set: every fixture captured as run.ts does (forced, the default budget), then
 * the "what failed / which / how many" questions (receiptQuestion) scored on the receipt text, and
 * the receipts' sizes (median and max bytes) over every fixture. No search runs, so it takes seconds.
 *
 *   bun bench/retrieval/receipts.ts [--misses] [--dump DIR]   every in-repo set (never the blind one)
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defaultConfig } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { TOOL_CALLS } from "../../src/store/next-calls.ts";
import { median } from "../stats-math.ts";
import { createScratch } from "../temp.ts";
import { hasQuestionSet, loadFixture, loadQuestions, QUESTION_SETS } from "./run.ts";

const args = process.argv.slice(2);
const showMisses = args.includes("--misses");
const dumpAt = args.indexOf("--dump");
const dump = dumpAt === -1 ? null : args[dumpAt + 1]!;

const scratch = createScratch();
const sizes: number[] = [];
let answeredAll = 0;
let questionsAll = 0;
try {
  for (const set of QUESTION_SETS) {
    if (set === "blind" || !hasQuestionSet(set)) continue;
    const questions = loadQuestions(set);
    const fixtures = [...new Set(questions.map((q) => q.fixture))];
    const config = defaultConfig({ HOME: scratch.dir });
    config.db = join(scratch.dir, `receipts-${set}.db`);
    const engine = createEngine({ config, calls: TOOL_CALLS, background: "inline" });
    const receipts = new Map<string, string>();
    for (const f of fixtures) {
      const r = await engine.capture({ text: loadFixture(f, set), tool: "bash", force: true, label: f, project: scratch.dir });
      if (!r.stored) throw new Error(`${f} was not stored`);
      receipts.set(f, r.receipt);
      sizes.push(Buffer.byteLength(r.receipt));
      if (dump) {
        mkdirSync(join(dump, set), { recursive: true });
        writeFileSync(join(dump, set, `${f}.receipt`), r.receipt);
      }
    }
    await engine.close();
    const rq = questions.filter((q) => q.receiptQuestion);
    const missed = rq.filter((q) => !receipts.get(q.fixture)!.includes(q.answer.text));
    answeredAll += rq.length - missed.length;
    questionsAll += rq.length;
    const setSizes = fixtures.map((f) => Buffer.byteLength(receipts.get(f)!));
    console.log(
      `${set}: receipts ${rq.length - missed.length}/${rq.length}; receipt bytes median ${median(setSizes)} max ${Math.max(...setSizes)}`,
    );
    if (showMisses) for (const q of missed) console.log(`  miss ${q.id} ${q.fixture}: ${JSON.stringify(q.answer.text)}`);
  }
  console.log(
    `all: receipts ${answeredAll}/${questionsAll}; receipt bytes median ${median(sizes)} max ${Math.max(...sizes)} (${sizes.length} receipts)`,
  );
} finally {
  scratch.remove();
}
