/**
 * What a search takes as evidence that a statement answers a question (search.ts): a rare word of
 * the question counts in its own form or its family, not as a short form; a question most of whose
 * words the memory never saw is not answered through one rare word; below an open matter on the
 * whole question, the correction of a statement that stays stays too; a later record about the
 * question's subject does not jump above an earlier one that holds a more specific word of the
 * question. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import type { WeightedGroup } from "../../src/memory/candidates.ts";
import { idfOf } from "../../src/memory/candidates.ts";
import { holdsRareWord } from "../../src/memory/gate.ts";
import { readsOpen } from "../../src/memory/open-matter.ts";
import { queryGroups } from "../../src/memory/query.ts";
import { textScore } from "../../src/memory/rank.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

const search = async (m: TestMemory, query: string) =>
  (await m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search")).hits.map((h) => h.id);

describe("a rare word as evidence", () => {
  const groups: WeightedGroup[] = queryGroups("thermostat").map((g) => ({ ...g, df: 1, rows: 300, idf: idfOf(1, 300) }));
  const rare = new Set([0]);

  test("held as a short form of the word only, it is no evidence", () => {
    // "tht" is one of the short forms of "thermostat" (abbreviations.ts): a word of its own here.
    const m = textScore("the tht job failed again at night", groups);
    expect(m.matched).toBe(1);
    expect(m.forms.get(0)).toBeLessThan(0.8);
    expect(holdsRareWord(m, rare)).toBe(false);
  });

  test("held in its own form or its family, it is", () => {
    expect(holdsRareWord(textScore("the thermostat in the lab reads high", groups), rare)).toBe(true);
    expect(holdsRareWord(textScore("both thermostats read high", groups), rare)).toBe(true);
    expect(holdsRareWord(textScore("the thermostat reads high", groups), new Set())).toBe(false);
  });
});

describe("a question mostly unknown to the memory", () => {
  async function history() {
    const m = testMemory();
    const note = await m.add("note", "The kiln controller reads its settings from /etc/kiln.toml at boot.");
    // In a memory of some size, a word in one event is rare.
    for (let i = 0; i < 200; i++) await m.add("answer", `Pushed branch feature-${i} and the checks went green.`);
    return { m, note };
  }

  test("is not answered through its one rare word: more than two of every three of its words were never said", async () => {
    const { m } = await history();
    expect(await search(m, "which glaze recipe suits the kiln firing curve")).toEqual([]);
  });

  test("with fewer unknown words the same rare word still answers, and so does a question the memory knows", async () => {
    const { m, note } = await history();
    expect((await search(m, "kiln glaze recipe"))[0]).toBe(note);
    expect((await search(m, "where does the kiln controller read its settings"))[0]).toBe(note);
  });
});

describe("below an open matter on the whole question", () => {
  test("a question without its mark reads as open when begun as English asks: a wh-word, then an auxiliary", () => {
    for (const t of [
      "where's the deploy token for the kiosk",
      "whats the kiosk timeout rn",
      "- e12 prompt: how do we reset the kiosk",
      "Who is on the kiosk rota",
    ])
      expect(readsOpen(t)).toBe(true);
    for (const t of [
      "when the kiosk sleeps, the badge reader restarts",
      "how we reset the kiosk: hold power for ten seconds",
      "where it says kiosk, read terminal",
    ])
      expect(readsOpen(t)).toBe(false);
  });

  test("the correction of a statement that stays is shown with it, though it holds few of the question's words", async () => {
    const m = testMemory();
    for (let i = 0; i < 6; i++) {
      await m.add("prompt", `the invoice pdf for order ${i} has a blurry logo`, `s${i}`);
      await m.add("answer", `Re-rendered the invoice pdf for order ${i} with the vector logo.`, `s${i}`);
    }
    const old = await m.add(
      "prompt",
      "fyi the invoice mailer sends from billing@acme.test, through the smtp relay on the ops box, with the finance team in bcc for every invoice",
      "s8",
    );
    const fix = await m.add("correction", "moved off billing@acme.test, everything goes out from accounts@acme.test now", "s9");
    // A request holding every word of the question the memory knows, ending in a question mark: an open matter.
    const open = await m.add("prompt", "the invoice mailer should send a copy to sales too, can you wire that up?", "s10");
    const hits = await search(m, "which address does the invoice mailer send from");
    expect(hits[0]).toBe(open);
    expect(hits).toContain(old);
    expect(hits).toContain(fix);
    expect(hits.indexOf(fix)).toBeLessThan(hits.indexOf(old));
  });
});

describe("of two records about the question's subject", () => {
  test("the earlier one holding a more specific word of the question keeps its place above the later one", async () => {
    const m = testMemory();
    for (let i = 0; i < 30; i++) {
      await m.add("prompt", `tidy the styles of the settings screen, part ${i}`, `s${i}`);
      await m.add("answer", `Settings screen styles tidied, part ${i}.`, `s${i}`);
    }
    // "cache" is common here, "key" less so, and neither rare (search.ts isRare: in a handful of rows).
    for (let i = 0; i < 15; i++) {
      await m.add("prompt", `the ci cache missed again on job ${i}`, `c${i}`);
      await m.add("answer", `Warmed the cache for job ${i}; next run should hit.`, `c${i}`);
    }
    for (let i = 0; i < 12; i++) await m.add("prompt", `rotate the api key of service ${i}`, `k${i}`);
    const earlier = await m.add("note", "cache: the key is the lockfile hash plus the node major", "n1");
    for (let i = 0; i < 3; i++) await m.add("prompt", `tidy the styles of the login screen, part ${i}`, `t${i}`);
    const later = await m.add("note", "cache: pruned every sunday night by the cleanup workflow", "n2");
    const hits = await search(m, "what goes into the cache key");
    expect(hits[0]).toBe(earlier);
    expect(hits.indexOf(later) === -1 || hits.indexOf(later) > hits.indexOf(earlier)).toBe(true);
    expect(await search(m, "when is the cache pruned")).toContain(later);
    // A later record holding the same words of the question does go above it.
    const newer = await m.add("note", "cache: the key is the lockfile hash plus the runner image", "n3");
    expect((await search(m, "what goes into the cache key"))[0]).toBe(newer);
  });
});
