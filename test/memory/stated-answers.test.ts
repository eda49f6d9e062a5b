/**
 * An agent's answer stating a fact about the most specific word of the question it holds passes
 * the gate with less of the question than chatter needs (gate.ts CLAIM_SHARE) when it holds
 * another word of the question too: the question's other words are said otherwise in it. An
 * answer holding that word only in passing, about something else, does not (one holding it alone
 * is a guess: subject-records.test.ts). The question's "background" and "daemon" are words the
 * memory never heard, so both answers hold less than LOOSE_SHARE of what it asks: only being about
 * its subject lets one through. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const QUERY = "which background daemon does the image resizing and cropping for thumbnails";

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

/** Work on images (often), workers, resizing and cropping (now and then), thumbnails (twice), each exchange a little different. */
async function chatter(m: TestMemory) {
  const places = ["the gallery", "the profile page", "the product page", "the checkout", "the blog", "the admin list"];
  for (const [i, p] of places.entries()) {
    await m.add("prompt", `images on ${p} load slowly on phones, case ${i}`, `s${i}`);
    await m.add("answer", `Lazy loading added to the images on ${p} (case ${i}); first paint is faster now.`, `s${i}`);
    if (i % 2 === 0) {
      await m.add("prompt", `the queue worker for case ${i} restarted twice overnight, why?`, `s${i}`);
      await m.add("prompt", `resize the banner for case ${i} to fit the new header`, `s${i}`);
    } else await m.add("prompt", `crop the avatar for case ${i} to a square`, `s${i}`);
    if (i === 1 || i === 4) await m.add("prompt", `some thumbnails on ${p} look blurry on retina screens`, `s${i}`);
  }
}

describe("an answer stating a fact about the question's most specific word", () => {
  test("passes though the question's other words are said otherwise", async () => {
    const m = testMemory();
    await chatter(m);
    await m.add("prompt", "the gallery should show smaller previews", "s8");
    const answer = await m.add("answer", "Thumbnails are made by imgproxy from the original image and kept in its cache for a week.", "s8");
    await chatter(m);
    expect(await search(m, QUERY)).toContain(answer);
  });

  test("an answer holding that word in passing, about something else, does not", async () => {
    const m = testMemory();
    await chatter(m);
    await m.add("prompt", "the upload form accepts huge files", "s8");
    const aside = await m.add("answer", "The upload form now rejects files over 20 MB; image thumbnails are unchanged.", "s8");
    await chatter(m);
    expect(await search(m, QUERY)).not.toContain(aside);
  });
});
