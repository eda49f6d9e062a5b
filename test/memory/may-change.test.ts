/**
 * mayChange is a quick test before changeSentences: false only when changeSentences finds nothing.
 * Sentences written for this test.
 */
import { expect, test } from "bun:test";
import { changeSentences, mayChange } from "../../src/memory/change-cues.ts";

const texts = [
  "the invoice job runs at 2am",
  "can you look at the flaky upload test?",
  "we moved the invoice job to the eu cluster",
  "invoices are rendered with weasyprint now",
  "ok im switching the queue to redis streams",
  "policy change: reviews need two approvals",
  "feat(pdf): move rendering to the worker",
  "the old bucket is gone",
  "use pnpm, not npm",
  "no, the staging box. it runs the nightly import",
  "thanks, looks good. the report is fine. deploy it friday",
  "Done. Reran the suite; all green.",
  "move the parser into its own module",
  "let's migrate the cron jobs over to systemd timers",
  "stats: 14 rows. nothing else to say",
];

test("false only when changeSentences finds nothing, for every kind", () => {
  for (const text of texts)
    for (const kind of ["prompt", "answer", "note", "decision"]) {
      if (!mayChange(text)) expect({ text, kind, found: changeSentences(text, kind) }).toEqual({ text, kind, found: [] });
    }
});

test("true for a change said in a later sentence, false for plain reports", () => {
  expect(mayChange("the nightly import broke again. we switched it to the replica")).toBe(true);
  expect(mayChange("ok. policy change: reviews need two approvals")).toBe(true);
  expect(mayChange("the invoice job runs at 2am")).toBe(false);
  expect(mayChange("Done. Reran the suite; all green.")).toBe(false);
});
