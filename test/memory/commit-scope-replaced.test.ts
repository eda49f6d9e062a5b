/**
 * A commit message's scope ("docs(publish): ...") names the part of the project the whole message
 * is about: a later statement changing that part replaces every clause of it, so a question that
 * finds a clause the correction does not repeat still shows the correction first and the old
 * message marked (conflicts.ts). Each sentence here is this test's own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const CHATTER = [
  ["prompt", "the gallery loads slowly on mobile, can you look"],
  ["answer", "Compressed the gallery thumbnails and lazy-loaded the grid."],
  ["prompt", "contact form throws when the message is empty"],
  ["answer", "The contact form now checks for an empty message before sending."],
  ["prompt", "dark mode toggle forgets its state after reload"],
  ["answer", "The toggle keeps its state in local storage now."],
] as const;

async function history(m: TestMemory, rounds: number, session: string) {
  for (let i = 0; i < rounds; i++) for (const [kind, text] of CHATTER) await m.add(kind, text, session);
}

describe("a commit message's scope is what it is about", () => {
  test("a correction changing the scope's subject replaces the clause a question found, and ranks above it", async () => {
    const m = testMemory();
    await history(m, 6, "s1");
    const old = await m.add(
      "answer",
      "docs(publish): PUBLISHING.md\n\nTag the changelog entry, then upload the tarball with the sftp script to the mirror host and announce it.",
      "s2",
    );
    await history(m, 3, "s3");
    const correction = await m.add(
      "correction",
      "ci: publishing moved to the release workflow\n\nA publish is now a tag on main, the workflow signs and uploads; PUBLISHING.md rewritten.",
      "s4",
    );
    const r = await m.ok({ type: "search", project: PROJECT, query: "how do I get the tarball onto the mirror", limit: 5 }, "search");
    const ids = r.hits.map((h) => h.id);
    expect(ids).toContain(correction);
    expect(ids.indexOf(correction)).toBeLessThan(ids.indexOf(old));
    expect(r.hits.find((h) => h.id === old)?.supersededBy).toBe(correction);
    m.db.close();
  });
});
