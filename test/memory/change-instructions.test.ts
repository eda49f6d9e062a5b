/**
 * Changes said as a user says them to an agent, linked when written to the statements they
 * replace (classify.ts, supersede.ts), so a search in the old statement's words shows the change
 * first and marks the old statement replaced (conflicts.ts): an instruction of change that says
 * where to ("let's move X to Y"), one tacked before a request ("..., can you start with Z?"), a
 * removal said as "rip out", a thing that "gets decommissioned", and
 * a decision that drops something many other statements name. Histories written for these tests.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { keyOf, statementOf } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

/** Everyday chatter, some of it naming `name`, so the old statement is not the only one that does. */
async function chatter(m: TestMemory, n: number, name: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `rerun the flaky suite number ${i} please`, "s1");
    await m.add("answer", `Suite ${i} passed on retry${i % 4 === 0 ? `; ${name} was not involved` : ""}, ${i + 30} s.`, "s1");
    await m.add("command", `$ just suite ${i}`, "s1");
  }
}

const search = (m: TestMemory, query: string) => m.ok({ type: "search", project: PROJECT, query, limit: 5 }, "search");

/** The change is shown first and the old statement, below it, is marked replaced by it. */
async function changeFirst(m: TestMemory, query: string, old: string, fix: string): Promise<void> {
  const found = await search(m, query);
  expect(found.hits[0]?.id).toBe(fix);
  expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
}

/** Nothing replaced the old statement: it is shown and not marked. */
async function stillCurrent(m: TestMemory, query: string, old: string): Promise<void> {
  const found = await search(m, query);
  const hit = found.hits.find((h) => h.id === old);
  expect(hit).toBeDefined();
  expect(hit?.supersededBy ?? null).toBeNull();
}

describe("an instruction of change replaces what it changes", () => {
  test("'let's move X to Y' in a prompt replaces the decision that chose X", async () => {
    const m = testMemory();
    await chatter(m, 15, "Quarkbus");
    const old = await m.add("decision", "Decision: shared screen state lives in Quarkbus stores, one store per screen.", "s1");
    await chatter(m, 15, "Quarkbus");
    const fix = await m.add(
      "prompt",
      "let's move the screen state to Fluxlet atoms, one per screen, I'm tired of the store boilerplate",
      "s2",
    );
    await changeFirst(m, "where does shared screen state live", old, fix);
  });

  test("'switch X to Y' without an identifier is a change", async () => {
    const m = testMemory();
    await chatter(m, 15, "gather script");
    const old = await m.add("note", "exports: each worker writes its own shard file, merged afterwards by the gather script", "s1");
    await chatter(m, 15, "gather script");
    const fix = await m.add(
      "prompt",
      "switch exports to parallel appends through a shared handle so every worker writes into the same file, no merging",
      "s2",
    );
    await changeFirst(m, "how do workers write export files", old, fix);
  });

  test("a change tacked before a request ('..., can you start with Z?') still replaces", async () => {
    const m = testMemory();
    await chatter(m, 15, "boxkit");
    const old = await m.add("decision", "decision: pages are laid out with boxkit-grid, no handwritten styles", "s1");
    await chatter(m, 15, "boxkit");
    const fix = await m.add(
      "prompt",
      "ok so we're moving all pages to boxkit-flow, the grid kept breaking on small screens, can you start with the footer?",
      "s2",
    );
    await changeFirst(m, "which layout do pages use", old, fix);
  });

  test("'rip out X, keep Y in Z' replaces the note that put Y in X", async () => {
    const m = testMemory();
    await chatter(m, 15, "memo tier");
    const old = await m.add("note", "quota cache: Tarnish cluster, key per tenant, TTL 30s", "s1");
    await chatter(m, 15, "memo tier");
    const fix = await m.add("prompt", "rip out the shared tarnish tier, keep the tenant quota cache in process memory (10 s TTL)", "s2");
    await changeFirst(m, "where is the tenant quota cache kept", old, fix);
  });

  test("'the X box gets decommissioned' names X as gone", async () => {
    const m = testMemory();
    await chatter(m, 15, "Bramble");
    const old = await m.add("decision", "decision(release): pipeline on Bramble, agents on the packaging host", "s1");
    await chatter(m, 15, "Bramble");
    const fix = await m.add("correction", "release: moved to Keelhaul CI, the Bramble box gets decommissioned", "s2");
    await changeFirst(m, "which service runs the release pipeline", old, fix);
  });

  test("'gets decommissioned' and 'will be decommissioned' say the thing is gone, as 'got decommissioned' does", () => {
    for (const text of [
      "the Bramble box gets decommissioned",
      "the Bramble box will be decommissioned",
      "the Bramble box got decommissioned",
    ])
      expect([...statementOf(text, "note").removed]).toContain(keyOf("bramble"));
  });
});

describe("what a decision drops is looked up on its own", () => {
  test("'dropped X' finds the old statement naming X among many that share the decision's common words", async () => {
    const m = testMemory();
    const old = await m.add("prompt", "label printing goes through the Glyphon runtime", "s1");
    // Many later statements share the decision's other words (labels, builds, history), and some name Glyphon.
    for (let i = 0; i < 45; i++) {
      await m.add("note", `note: shipping labels for batch ${i} built from the history table`, "s1");
      if (i % 2 === 0) await m.add("prompt", `glyphon warning on batch ${i} again, the labels look fine though`, "s1");
    }
    const fix = await m.add("decision", "decision: dropped glyphon. Inkwell builds shipping labels and history sheets now", "s2");
    await changeFirst(m, "what prints the labels runtime", old, fix);
  });
});

describe("tasks that change code, not what holds", () => {
  test("'move X into Y' (a refactor) replaces nothing", async () => {
    const m = testMemory();
    await chatter(m, 15, "token parsing");
    const old = await m.add("decision", "decision: session tokens are parsed by the gateway, never by services", "s1");
    await chatter(m, 15, "token parsing");
    await m.add("prompt", "move the session token parsing into gateway/auth.rs, it is duplicated", "s2");
    await stillCurrent(m, "who parses session tokens", old);
  });

  test("'bump X' without saying to what replaces nothing", async () => {
    const m = testMemory();
    await chatter(m, 15, "snapkit");
    const old = await m.add("prompt", "never hand-edit the snapkit snapshot files, regenerate them", "s1");
    await chatter(m, 15, "snapkit");
    await m.add("prompt", "build(deps): bump snapkit", "s2");
    await stillCurrent(m, "hand-edit snapkit snapshot files", old);
  });
});
