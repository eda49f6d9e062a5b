/**
 * Changes said the way people say them in chat (change-cues.ts): announced in the present
 * progressive ("ok we're ditching X"), typed with the g dropped ("switchin to Y"), or under a label
 * naming a change ("policy change: ..."). And what stays a request or a question.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { changeSentences, isCorrection, statementOf } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { hitIds, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("changes announced in ordinary chat", () => {
  test.each([
    ["ok we're ditching the memcached layer, postgres answers fast enough on its own", "prompt"],
    ["im finally retiring the webhook relay, nobody calls it", "prompt"],
    ["I am switchin the thumbnails to webp, the jpegs are twice the size", "prompt"],
    // The subject left out, as chat does: "(I'm) movin the backups to X".
    ["ok movin the nightly backups to the eu bucket, legal wants them there", "prompt"],
    ["policy change: contractors get read-only access to the billing dashboards", "prompt"],
    ["Change of plans: the beta opens to every region at once", "note"],
    // The apostrophe as phones and word processors type it.
    ["we’re retiring the fax gateway, nobody sends faxes", "prompt"],
  ])("%p changes what was said before", (text, kind) => {
    expect(statementOf(text, kind).changes).toBe(true);
  });

  test.each([
    // A request in the imperative asks for work; it decides nothing yet.
    ["drop the session cookie and see if the tests still pass", "prompt"],
    // A question about a change is no change.
    ["are we ditching the memcached layer?", "prompt"],
    // "were" is no "we're" with its apostrophe left out: a past progressive reports.
    ["the nightly jobs were switching regions every hour until the pin held", "prompt"],
    ["prices were increasing through the spring, the sheet has them", "note"],
    // A change the label does not name: "exchange:" is a word of its own.
    ["exchange: rates come from the central bank feed", "prompt"],
  ])("%p is not a change", (text, kind) => {
    expect(isCorrection(text, kind)).toBe(false);
  });

  test("'raisin' is a word of its own, no -ing form with its g dropped", () => {
    expect(changeSentences("the oatmeal raisin batch sold out by noon", "note")).toEqual([]);
  });

  test("an announced change ranks above the statement it ends, though both answer the question", async () => {
    const m = testMemory();
    for (let i = 0; i < 30; i++) {
      await m.add("prompt", `could you regenerate the invoice ${i} preview once more`, "s1");
      await m.add("answer", `Regenerated invoice ${i}: the preview renders in ${i + 40} ms.`, "s1");
    }
    const old = await m.add("decision", "exports are signed with an HMAC key kept in the vault, verified on upload", "s1");
    for (let i = 0; i < 30; i++) await m.add("prompt", `the invoice ${i} total looks off by a cent, check rounding`, "s2");
    const fix = await m.add("prompt", "ok im dropping the signing on exports, the bucket is private anyway and nobody verifies it", "s3");
    const found = await hitIds(m, "are the exports signed");
    const rank = (id: string) => found.indexOf(id);
    expect(rank(fix)).toBeGreaterThanOrEqual(0);
    expect(rank(fix)).toBeLessThan(rank(old));
  });
});
