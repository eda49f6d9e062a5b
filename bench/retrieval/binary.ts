/**
 * A retrieval set run through the built binary, as a user runs it: every fixture piped into
 * `pi-sidecar capture --tool bash --force`, the queue settled, then every question asked with
 * `pi-sidecar search --source ID --limit 3 -- QUERY` (its JSON to score, its plain text for the bytes shown) in a fresh HOME with the default
 * configuration. Scored by run.ts's rule: a hit answers when one of its lines is an answer line (by
 * number) holding the answer's text; receipts answer a receipt question when they hold that text.
 *
 *   bun bench/retrieval/binary.ts --bin dist/pi-sidecar [--blind | --tuning | --wave3c | ...]
 *
 * Prints one summary line on stderr and the misses' ids as JSON on stdout (never question text, so
 * a blind set's run shows totals only).
 */
import { spawnSync } from "node:child_process";
import { join, resolve } from "node:path";
import { median } from "../stats-math.ts";
import { createScratch } from "../temp.ts";
import { hasQuestionSet, loadFixture, loadQuestions, QUESTION_SETS, type QuestionSet, showsAnswer } from "./run.ts";

const argv = process.argv.slice(2);
const binAt = argv.indexOf("--bin");
if (binAt < 0 || !argv[binAt + 1]) {
  console.error("usage: bun bench/retrieval/binary.ts --bin PATH [--blind | --tuning | --wave3c | ...]");
  process.exit(2);
}
const bin = resolve(argv[binAt + 1]!);
const set: QuestionSet = QUESTION_SETS.find((s) => argv.includes(`--${s}`)) ?? "blind";
if (!hasQuestionSet(set)) {
  console.error(`No ${set} set here (questions.json and fixtures/): copy it in first.`);
  process.exit(1);
}

const scratch = createScratch();
try {
  const db = join(scratch.dir, "sidecar.db");
  const env: Record<string, string | undefined> = {
    ...process.env,
    HOME: scratch.dir,
    PI_CODING_AGENT_DIR: join(scratch.dir, ".pi", "agent"),
  };
  for (const key of Object.keys(env)) if (key.startsWith("PI_SIDECAR_")) delete env[key];
  const raw = (args: string[], input?: string) => {
    const r = spawnSync(bin, ["--db", db, ...args], { input, env, cwd: scratch.dir, maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`${args[0]} exited ${r.status}: ${r.stderr.toString().slice(0, 400)}`);
    return r.stdout.toString();
  };
  const run = (args: string[], input?: string) => JSON.parse(raw(["--json", ...args], input));

  const questions = loadQuestions(set);
  const fixtures = [...new Set(questions.map((q) => q.fixture))];
  const ids = new Map<string, string>();
  const receipts = new Map<string, string>();
  for (const f of fixtures) {
    const r = run(["capture", "--tool", "bash", "--force", "--label", f], loadFixture(f, set));
    if (!r.stored) throw new Error(`${f} was not stored`);
    ids.set(f, r.sourceId);
    receipts.set(f, r.receipt);
  }
  raw(["settle"]);

  let answered = 0;
  const bytes: number[] = [];
  const misses: string[] = [];
  for (const q of questions) {
    const args = ["search", "--source", ids.get(q.fixture)!, "--limit", "3", "--", q.query];
    const r = run(args);
    const hits: { lines: { line: number; text: string }[] }[] = r.hits ?? [];
    if (hits.some((h) => showsAnswer(q, h))) answered++;
    else misses.push(q.id);
    // What the model reads is the plain answer, not the JSON.
    bytes.push(Buffer.byteLength(raw(args)));
  }
  const receiptQs = questions.filter((q) => q.receiptQuestion);
  const inReceipt = receiptQs.filter((q) => receipts.get(q.fixture)!.includes(q.answer.text)).length;
  const pct = (100 * answered) / questions.length;
  console.error(
    `${set} on ${bin}: ${fixtures.length} outputs; ${pct.toFixed(1)}% top 3 (${answered}/${questions.length}), ` +
      `median shown ${Math.round(median(bytes))} B; receipts ${inReceipt}/${receiptQs.length}`,
  );
  console.log(JSON.stringify({ set, answered, questions: questions.length, misses }, null, 1));
} finally {
  scratch.remove();
}
