/**
 * Later corrections supersede earlier facts: search puts the newest first and marks the older as
 * not current, recall leaves the older out, and a summary written after the correction says the
 * same, even once the old event itself is gone.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("corrections", () => {
  test('"no, use pnpm" is stored as a correction and replaces the earlier preference', async () => {
    const m = testMemory();
    const old = await m.add("prompt", "Always use npm to install packages in this repo.", "s1");
    await m.add("answer", "Installed the dependencies with npm install.", "s1");
    m.clock.t += 3_600_000;
    const fix = await m.ok({ type: "add", project: PROJECT, session: "s2", kind: "prompt", text: "no, use pnpm, not npm" }, "add");
    expect(fix.kind).toBe("correction");
    expect(fix.supersedes).toContain(old);
    const found = await m.ok({ type: "search", project: PROJECT, query: "which package manager to install packages", limit: 5 }, "search");
    expect(found.hits[0]!.id).toBe(fix.id);
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix.id);
    expect(found.text).toContain(`replaced by ${fix.id} (not current)`);
    const recall = await m.ok({ type: "recall", project: PROJECT, session: "s3", prompt: "install the packages" }, "recall");
    expect(recall.text).toContain("pnpm");
    expect(recall.text).not.toContain("Always use npm");
    expect(recall.items.map((i) => i.id)).not.toContain(old);
  });

  test("a chain of corrections: only the newest value is current, in search, recall and summaries", async () => {
    const m = testMemory((c) => {
      c.memory.windowEvents = 6;
    });
    const v1 = await m.add("prompt", "The staging payments API runs on port 4100.", "s1");
    const v2 = await m.add("prompt", "Correction: the staging payments API runs on port 4200 now.", "s2");
    const v3 = await m.add("prompt", "We moved the staging payments API port from 4200 to 4300 last week.", "s3");
    const found = await m.ok({ type: "search", project: PROJECT, query: "what port is the staging payments API on", limit: 5 }, "search");
    expect(found.hits[0]!.id).toBe(v3);
    const current = found.hits.filter((h) => h.supersededBy === null && /4[123]00/.test(h.text));
    expect(current.map((h) => h.id)).toEqual([v3]);
    expect([v1, v2].every((id) => found.hits.find((h) => h.id === id)?.supersededBy)).toBe(true);
    // The window is summarised: the summary keeps the correction and marks what it replaced.
    for (let i = 0; i < 3; i++) await m.add("command", `command failed (exit 1): npm run build:${i}`, "s3");
    const summary = m.db.query<{ text: string }, []>("SELECT text FROM memory_summaries").get()!.text;
    expect(summary).toContain("4300");
    const recall = await m.ok({ type: "recall", project: PROJECT, session: "s4", prompt: "staging payments API port" }, "recall");
    expect(recall.text).toContain("4300");
    expect(recall.text).not.toMatch(/\b4100\b/);
    expect(recall.text).not.toMatch(/runs on port 4200/);
    // Retention drops the old events; the replacement link (and so the marking) stays.
    m.clock.t += 40 * 86_400_000;
    await m.ok({ type: "retention" }, "retention");
    expect(m.db.query("SELECT 1 FROM memory_events WHERE id = ?").get(Number(v1.slice(1)))).toBeNull();
    const later = await m.ok({ type: "search", project: PROJECT, query: "staging payments API port", limit: 5 }, "search");
    const lines = later.hits.flatMap((h) => h.text.split("\n")).filter((l) => /port 4[12]00/.test(l));
    for (const l of lines) expect(l).toContain("not current");
  });

  test("statements about other things are not replaced (another environment, another component)", async () => {
    const m = testMemory();
    const staging = await m.add("prompt", "The staging auth gateway runs on port 5100.");
    const prodBilling = await m.add("prompt", "The production billing service runs on port 6100.");
    const fix = await m.ok(
      { type: "add", project: PROJECT, kind: "prompt", text: "no, the production auth gateway runs on port 5200, not 5150" },
      "add",
    );
    expect(fix.supersedes).not.toContain(staging);
    expect(fix.supersedes).not.toContain(prodBilling);
    const found = await m.ok({ type: "search", project: PROJECT, query: "staging auth gateway port" }, "search");
    expect(found.hits.find((h) => h.id === staging)?.supersededBy).toBeNull();
  });

  test("forgetting a correction makes what it replaced current again", async () => {
    const m = testMemory();
    const old = await m.add("prompt", "Prefer named exports for React components.");
    const fix = await m.add("prompt", "Actually use default exports rather than named exports for React components.");
    let found = await m.ok({ type: "search", project: PROJECT, query: "export style for React components" }, "search");
    expect(found.hits.find((h) => h.id === old)?.supersededBy).toBe(fix);
    await m.ok({ type: "forget", project: PROJECT, id: fix }, "forget");
    found = await m.ok({ type: "search", project: PROJECT, query: "export style for React components" }, "search");
    expect(found.hits[0]).toMatchObject({ id: old, supersededBy: null });
  });
});
