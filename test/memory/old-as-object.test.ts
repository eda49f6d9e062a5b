/**
 * "the old X" says X was replaced when it is the subject of its clause ("..., the old host is
 * gone"), not when it is what someone still meets ("cashiers see the old template after a
 * reload"): a report of a problem, which neither changes nor rejects anything (change-cues.ts,
 * classify.ts, supersede.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { isCorrection, rejectedOf } from "../../src/memory/classify.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, type TestMemory, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

async function chatter(m: TestMemory, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    await m.add("prompt", `can you rerun the parser ${i} benchmarks again`, "s1");
    await m.add("answer", `Ran the parser ${i} benchmarks: all green, the tokenizer takes ${i + 20} ms.`, "s1");
  }
}

describe("the old X", () => {
  test("as an object it rejects nothing and is no cue of change", () => {
    expect(isCorrection("cashiers see the old template after a reload", "note")).toBe(false);
    expect([...rejectedOf("got a file from the old exporter and it looks different")]).toEqual([]);
  });

  test("as the subject of its clause it rejects the thing", () => {
    expect(isCorrection("receipts print from Zebrina now, the old template is retired", "note")).toBe(true);
    expect([...rejectedOf("the old exporter wrote tabs. it writes commas")]).toContain("export");
  });

  test("a problem report naming the old thing replaces nothing", async () => {
    const m = testMemory();
    await chatter(m, 20);
    await m.add("note", "receipts: printed from the Quillprint template on 80mm paper", "s1");
    await chatter(m, 20);
    const added = await m.ok(
      {
        type: "add",
        project: PROJECT,
        session: "s2",
        kind: "note",
        text: "fix(till): cashiers see the old quillprint layout after a reload",
      },
      "add",
    );
    expect(added.supersedes).toEqual([]);
  });
});
