/**
 * A "where" question is answered by a text naming a place (place.ts): a path, a URL or a remote
 * said with a quarter of the question's words passes, as a person does for "who". Histories
 * written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { asksPlace, namesPlace } from "../../src/memory/place.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

describe("a place", () => {
  test("paths, URLs and remotes are places; a file name, a version or a ratio is not", () => {
    for (const t of [
      "synced to s3://kiln-logs/raw nightly",
      "see https://wiki.example.org/firing",
      "origin git@git.studio.lan:ops/kiln.git (fetch)",
      "drop them in /srv/kiln/incoming please",
      "it reads ~/kiln/profiles/cone6.toml",
      "copy to C:\\Kiln\\Profiles\\ first",
    ])
      expect(namesPlace(t)).toBe(true);
    for (const t of ["edited kiln.ts and profile.rs", "bumped to 2.4.1", "cooling at 1/2 speed", "and/or the glaze"])
      expect(namesPlace(t)).toBe(false);
  });

  // Read again from each character, a run this long takes minutes; read once, a few milliseconds.
  test("a long run of word characters, dots or dashes is read in time", () => {
    for (const run of ["a".repeat(400_000), "a.".repeat(200_000), "ab-".repeat(130_000)]) expect(namesPlace(run)).toBe(false);
  }, 2_000);

  test("'where' asks for a place; other questions do not", () => {
    expect(asksPlace("where do the firing logs end up?")).toBe(true);
    expect(asksPlace("which kiln fires cone 6?")).toBe(false);
  });
});

describe("a 'where' question", () => {
  async function history(m: TestMemory, said: string) {
    for (let i = 0; i < 10; i++) {
      await m.add("prompt", `the firing schedule ${i} shows the wrong cone in the report`, `c${i}`);
      await m.add("answer", `Fixed the report for schedule ${i}; the controller log was fine.`, `c${i}`);
      await m.add("prompt", `glaze batch ${i} needs its recipe card printed for the studio`, `c${i}`);
    }
    const answer = await m.add("answer", said, "s1");
    for (let i = 10; i < 14; i++) await m.add("prompt", `the firing schedule ${i} shows the wrong cone in the report`, `c${i}`);
    return answer;
  }

  test("is answered by a text naming a place with few of its words", async () => {
    const m = testMemory();
    const answer = await history(m, "Done: everything the controller writes now goes to /mnt/nas/kiln-store/yyyy-mm.");
    expect(await search(m, "where do old controller logs get archived?")).toContain(answer);
  });

  test("the same few words without a place are no answer", async () => {
    const m = testMemory();
    const answer = await history(m, "Done: everything the controller writes now goes to the big grey box under the desk.");
    expect(await search(m, "where do old controller logs get archived?")).not.toContain(answer);
  });
});
