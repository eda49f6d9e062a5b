/**
 * memory_search and memory_recall as tools: what their definitions cost in every request (real
 * tokenizer, the JSON a provider is sent), and answers for good and bad arguments.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { answerOf } from "../../src/memory/types.ts";
import { jsonSchema } from "../../src/surfaces/tools/definitions.ts";
import { MEMORY_TOOLS, memoryMcpTools, runMemoryTool } from "../../src/surfaces/tools/memory-tools.ts";
import { countTokens } from "../../src/tokens/count.ts";
import { cleanupTempDirs } from "../helpers.ts";
import { PROJECT, testMemory } from "./helpers.ts";

afterAll(cleanupTempDirs);

describe("memory tools", () => {
  test("their definitions are short: measured with the real tokenizer", () => {
    const sent = MEMORY_TOOLS.map((t) => ({ name: t.name, description: t.description, parameters: jsonSchema(t) }));
    const each = sent.map((t) => ({ name: t.name, tokens: countTokens(JSON.stringify(t)) }));
    const total = countTokens(JSON.stringify(sent));
    console.log(`memory tool definitions (o200k, as JSON): ${each.map((e) => `${e.name} ${e.tokens}`).join(", ")}; both ${total} tokens`);
    expect(total).toBeLessThan(160);
    expect(memoryMcpTools().map((t) => t.annotations.readOnlyHint)).toEqual([true, true]);
  });

  test("search and recall answer; bad arguments say what to send", async () => {
    const m = testMemory();
    const memory = { memory: (r: Parameters<typeof m.service.handle>[0]) => m.service.handle(r) };
    await m.add("correction", "no, use pnpm, not npm", "s1");
    const found = await runMemoryTool(memory, "memory_search", { query: "pnpm" }, { project: PROJECT, session: "s2" });
    expect(found.isError).toBe(false);
    expect(found.text).toContain("no, use pnpm, not npm");
    const recalled = await runMemoryTool(
      memory,
      "memory_recall",
      { prompt: "install the dependencies" },
      { project: PROJECT, session: "s2" },
    );
    expect(recalled.text).toContain("pnpm");
    const empty = await runMemoryTool(memory, "memory_recall", {}, { project: "/work/empty", session: "s2" });
    expect(empty).toMatchObject({ isError: false });
    expect(empty.text).toContain("Nothing remembered");
    for (const [args, says] of [
      [{}, "memory_search needs query"],
      [{ query: "x", limit: 500 }, "limit must be a whole number from 1 to 20"],
      [{ query: "x", extra: 1 }, "unknown argument extra"],
    ] as const) {
      const r = await runMemoryTool(memory, "memory_search", args as Record<string, unknown>, { project: PROJECT });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(says);
    }
    const status = answerOf(await m.ok({ type: "status", project: PROJECT, session: "s1" }, "status"), "status");
    expect(status.text).toContain("Memory for /work/project-a: on");
  });
});
