/**
 * A question stored as a correction replaces nothing (mood.ts: questions state nothing): "... is gone?"
 * asks whether it is. A correction that states a change still replaces. Inputs are our own.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `could you rerun the pottery kiln ${i} checks once more`, "s1");
    await m.add("answer", `Reran the pottery kiln ${i} checks: all green, the page loads in ${i + 40} ms.`, "s1");
  }
}

const addCorrection = (m: TestMemory, text: string) =>
  m.ok({ type: "add", project: PROJECT, session: "s2", kind: "correction", text }, "add");

describe("a question stored as a correction", () => {
  test("'the glaze mixer is gone?' replaces no statement; 'the glaze mixer is gone' does", async () => {
    const m = testMemory();
    await chatter(m, 20);
    const old = await m.add("note", "the glaze mixer runs every tuesday in the back studio", "s1");
    await chatter(m, 10);
    const asked = await addCorrection(m, "wait, the glaze mixer in the back studio is gone?");
    expect(asked.supersedes).toEqual([]);
    const fix = await addCorrection(m, "the glaze mixer in the back studio is gone, we sold it");
    expect(fix.supersedes).toEqual([old]);
  });

  test("a question about another thing does not replace a fact through shared words", async () => {
    const m = testMemory();
    await chatter(m, 20);
    await m.add("decision", "studio members book kiln slots through the shared calendar", "s1");
    await chatter(m, 10);
    const asked = await addCorrection(m, "did the shared calendar for studio members get moved to the new booking page?");
    expect(asked.supersedes).toEqual([]);
  });
});
