/**
 * A question's verb in the passive ("where is X hosted", "what are the tiles drawn from") names a
 * relation the answer says in its own words (passive-verb.ts): a statement holding the question's
 * nouns answers it without the verb. In a "how" question the verb is what is asked.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { passiveParticiple } from "../../src/memory/passive-verb.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("the verb of a question in the passive", () => {
  test.each([
    ["where is the preview site hosted these days?", "hosted"],
    ["what are the map tiles drawn from", "drawn"],
    ["what are the invoices written to", "written"],
    // An -ed word before a noun is part of the subject, not its verb.
    ["where are the cached thumbnails kept", "kept"],
    ["where is the read replica hosted these days", "hosted"],
    // A stop word as the verb still ends the subject: the -ed word after it is no verb.
    ["where are the tarballs kept for archived repos", "kept"],
    // The verb is what a "how" question asks; a question with no passive has none.
    ["how is the session cookie signed", null],
    ["where does the preview site run", null],
    ["what is deployed on fridays", null],
  ])("%p: %p", (query, verb) => {
    expect(passiveParticiple(query)).toBe(verb);
  });

  test("a statement holding the question's nouns answers it in its own verb", async () => {
    const m = testMemory();
    for (let i = 0; i < 20; i++) {
      await m.add("prompt", `the preview build ${i} is slow to load, can you look at the bundle`, "s1");
      await m.add("answer", `Build ${i}: split the vendor chunk, loads in ${i + 300} ms now.`, "s1");
      if (i % 5 === 0) await m.add("prompt", `the status site shows build ${i} green`, "s1");
      if (i % 7 === 0) await m.add("prompt", `reviewers say build ${i} has a broken font`, "s1");
      if (i % 7 === 1) await m.add("prompt", `reviewers want the font fixed in build ${i}`, "s1");
    }
    await m.add("prompt", "the old docs were hosted on a shared box", "s1");
    const answer = await m.add("prompt", "fyi the preview site runs on a small Hetzner box in Falkenstein, behind Caddy", "s2");
    const found = await m.ok(
      { type: "search", project: PROJECT, query: "where is the preview site hosted for reviewers", limit: 5 },
      "search",
    );
    expect(found.hits.map((h) => h.id)).toContain(answer);
    // The verb left out, the rest must still be held in the same share: one word of the rest is not enough.
    expect(found.hits.some((h) => h.text.startsWith("reviewers"))).toBe(false);
  });
});
