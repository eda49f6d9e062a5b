/**
 * The pruning benchmark's own logic, without pi: the scripted model (the real module the bench
 * writes) plays a work turn, follows a pointer and a cut context_get to the exact line, and
 * answers from a result still in view; prefix changes are told apart from appended messages.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { prefixChanges } from "../../bench/prune/analyze.ts";
import { modelScript } from "../../bench/prune/model-script.ts";
import { QUESTION_TURNS, TURNS, WORK_TURNS } from "../../bench/prune/plan.ts";
import { targetCallId } from "../../bench/prune/rehydration.ts";
import type { LoggedCall } from "../../bench/prune/session.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

type Msg = LoggedCall["messages"][number];
type Model = (ctx: { messages: Msg[] }) => unknown;

async function loadModel(): Promise<Model> {
  const path = join(tempDir("bench-prune-model-"), "model.mjs");
  writeFileSync(path, modelScript(TURNS));
  return (await import(path)).default as Model;
}

const user = (text: string): Msg => ({ role: "user", content: [{ type: "text", text }] });
const call = (id: string, name: string, args: Record<string, unknown>): Msg => ({
  role: "assistant",
  content: [{ type: "toolCall", id, name, arguments: args }],
});
const result = (id: string, name: string, text: string): Msg => ({
  role: "toolResult",
  toolCallId: id,
  toolName: name,
  content: [{ type: "text", text }],
});

// The file as read showed it: the line the first question asks for sits in the second part of a cut answer.
const FILE = ["import { x } from './x'", "", "class HonoBase {", "  #dispatch(", "    request: Request,", "  ) {}", "}"].join("\n");
const [PART1, PART2] = [`${FILE.split("\n").slice(0, 3).join("\n")}\n`, FILE.split("\n").slice(3).join("\n")];

describe("the pruning bench's scripted model", () => {
  test("a work turn makes its planned calls with ids from the turn and step, then answers", async () => {
    const model = await loadModel();
    const turn = WORK_TURNS[2]!;
    const first = model({ messages: [user(turn.prompt)] }) as { toolCalls: { id: string; name: string; arguments: unknown }[] };
    expect(first.toolCalls).toEqual([{ id: "call_t3_s0_0", ...turn.steps[0]![0]! }]);
    expect(model({ messages: [user(turn.prompt), call("call_t3_s0_0", "read", {}), result("call_t3_s0_0", "read", FILE)] })).toBe(
      turn.answer,
    );
  });

  test("a question follows the pointer and the cut answer's continuation, and quotes the exact line", async () => {
    const model = await loadModel();
    const q = QUESTION_TURNS[0]!;
    const id = targetCallId(q.target);
    expect(id).toBe("call_t3_s0_0");
    const pointer = `[pruned] read src/hono-base.ts lines 1-7 (120 B, 7 lines): no longer in view. The text as it was shown: context_get {"source": "ctx_abcdefgh", "lines": "1-7"}`;
    const history = [
      user(WORK_TURNS[2]!.prompt),
      call(id, "read", q.target.arguments),
      result(id, "read", pointer),
      { role: "assistant", content: [{ type: "text", text: "ok" }] },
    ];
    const asked = [...history, user(q.prompt)];
    const get1 = model({ messages: asked }) as { toolCalls: { name: string; arguments: unknown }[] };
    expect(get1.toolCalls[0]).toMatchObject({ name: "context_get", arguments: { source: "ctx_abcdefgh", lines: "1-7" } });
    const cut = `[ctx_abcdefgh lines 1-3 of 7]\n${PART1}\n[cut at the size cap; continue with context_get {"source": "ctx_abcdefgh", "lines": "4-7"}]`;
    const afterCut = [...asked, call("g1", "context_get", {}), result("g1", "context_get", cut)];
    const get2 = model({ messages: afterCut }) as { toolCalls: { name: string; arguments: unknown }[] };
    expect(get2.toolCalls[0]).toMatchObject({ name: "context_get", arguments: { source: "ctx_abcdefgh", lines: "4-7" } });
    const done = [...afterCut, call("g2", "context_get", {}), result("g2", "context_get", `[ctx_abcdefgh lines 4-7 of 7]\n${PART2}`)];
    expect(model({ messages: done })).toEndWith(`ANSWER: ${JSON.stringify("  #dispatch(")}`);
  });

  test("a question whose result is still in view is answered from it, with no retrieval", async () => {
    const model = await loadModel();
    const q = QUESTION_TURNS[0]!;
    const id = targetCallId(q.target);
    const messages = [user(WORK_TURNS[2]!.prompt), call(id, "read", q.target.arguments), result(id, "read", FILE), user(q.prompt)];
    expect(model({ messages })).toEndWith(`ANSWER: ${JSON.stringify("  #dispatch(")}`);
  });
});

describe("prefix changes", () => {
  const logged = (messages: Msg[]): LoggedCall => ({ callIndex: 0, systemPrompt: "s", tools: [], messages });
  test("appending messages is no change; a result turned into a pointer is one", () => {
    const a = [user("u1"), call("c1", "read", {}), result("c1", "read", FILE)];
    const b = [...a, { role: "assistant", content: [{ type: "text", text: "done" }] }, user("u2")];
    const c = [a[0]!, a[1]!, result("c1", "read", "[pruned] read x"), ...b.slice(3), user("u3")];
    const changes = prefixChanges([logged(a), logged(b), logged(c)]);
    expect(changes).toEqual([{ call: 2, turn: 3, toPointers: 1, other: 0, systemOrTools: false }]);
  });
});
