/**
 * The session bench's own logic, without pi: the scripted model (the real module the bench
 * writes) plays a work turn, follows a pointer, a receipt, a pruned receipt and pi's full-output
 * file to the exact line, and answers from a result still in view; prefix changes are told
 * apart from appended messages; the ideal cache counts the unchanged prefix as hits.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { prefixChanges, tokensOf } from "../../bench/prune/analyze.ts";
import { modelScript } from "../../bench/prune/model-script.ts";
import { QUESTION_TURNS, TURNS, targetCallId, WORK_TURNS } from "../../bench/prune/plan.ts";
import type { LoggedCall } from "../../bench/prune/session.ts";
import { cleanupTempDirs, tempDir } from "../helpers.ts";

afterAll(cleanupTempDirs);

type Msg = LoggedCall["messages"][number];
type Calls = { toolCalls: { id: string; name: string; arguments: Record<string, unknown> }[] };
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
const ok: Msg = { role: "assistant", content: [{ type: "text", text: "ok" }] };

// The file as read showed it: the line the first question asks for sits in the second part of a cut answer.
const FILE = ["import { x } from './x'", "", "class HonoBase {", "  #dispatch(", "    request: Request,", "  ) {}", "}"].join("\n");
const [PART1, PART2] = [`${FILE.split("\n").slice(0, 3).join("\n")}\n`, FILE.split("\n").slice(3).join("\n")];
const question = (i: number) => {
  const q = QUESTION_TURNS[i]!;
  return { q, id: targetCallId(q.target, q.occurrence) };
};

describe("the session bench's scripted model", () => {
  test("a work turn makes its planned calls with ids from the turn and step, then answers", async () => {
    const model = await loadModel();
    const turn = WORK_TURNS[1]!;
    const first = model({ messages: [user(turn.prompt)] }) as Calls;
    expect(first.toolCalls).toEqual(turn.steps[0]!.map((s, k) => ({ id: `call_t2_s0_${k}`, ...s })));
    const done = [user(turn.prompt), call("call_t2_s0_0", "read", {}), result("call_t2_s0_0", "read", FILE)];
    expect(model({ messages: done })).toBe(turn.answer);
  });

  test("a read answered with a pointer to stored text is followed before the next planned call", async () => {
    const model = await loadModel();
    const turn = WORK_TURNS.find((t) => t.steps.length > 1)!;
    const index = WORK_TURNS.indexOf(turn) + 1;
    const stored = `[readcache: stored] /p/x.ts: lines 1-7 have not changed since you read them; that read is no longer in view. The text: context_get {"source": "ctx_abcdefgh", "lines": "1-7"}`;
    const after = [user(turn.prompt), call(`call_t${index}_s0_0`, "read", {}), result(`call_t${index}_s0_0`, "read", stored)];
    const follow = model({ messages: after }) as Calls;
    expect(follow.toolCalls).toEqual([
      { id: `call_t${index}_f0_0`, name: "context_get", arguments: { source: "ctx_abcdefgh", lines: "1-7" } },
    ]);
    const next = model({
      messages: [...after, call(follow.toolCalls[0]!.id, "context_get", {}), result(follow.toolCalls[0]!.id, "context_get", FILE)],
    }) as Calls;
    expect(next.toolCalls[0]!.id).toBe(`call_t${index}_s1_0`);
  });

  test("a question follows the pointer and the cut answer's continuation, and quotes the exact line", async () => {
    const model = await loadModel();
    const { q, id } = question(0);
    expect(id).toBe("call_t2_s0_0");
    const pointer = `[pruned] read src/hono-base.ts lines 1-7 (120 B, 7 lines): no longer in view. The text as it was shown: context_get {"source": "ctx_abcdefgh", "lines": "1-7"}`;
    const asked = [user(WORK_TURNS[1]!.prompt), call(id, "read", q.target.arguments), result(id, "read", pointer), ok, user(q.prompt)];
    const get1 = model({ messages: asked }) as Calls;
    expect(get1.toolCalls[0]).toMatchObject({ name: "context_get", arguments: { source: "ctx_abcdefgh", lines: "1-7" } });
    const cut = `[ctx_abcdefgh lines 1-3 of 7]\n${PART1}\n[cut at the size cap; continue with context_get {"source": "ctx_abcdefgh", "lines": "4-7"}]`;
    const afterCut = [...asked, call("g1", "context_get", {}), result("g1", "context_get", cut)];
    const get2 = model({ messages: afterCut }) as Calls;
    expect(get2.toolCalls[0]).toMatchObject({ name: "context_get", arguments: { source: "ctx_abcdefgh", lines: "4-7" } });
    const done = [...afterCut, call("g2", "context_get", {}), result("g2", "context_get", `[ctx_abcdefgh lines 4-7 of 7]\n${PART2}`)];
    expect(model({ messages: done })).toEndWith(`ANSWER: ${JSON.stringify("  #dispatch(")}`);
  });

  test("in view: answered with no retrieval", async () => {
    const model = await loadModel();
    const { q, id } = question(0);
    const messages = [user(WORK_TURNS[1]!.prompt), call(id, "read", q.target.arguments), result(id, "read", FILE), ok, user(q.prompt)];
    expect(model({ messages })).toEndWith(`ANSWER: ${JSON.stringify("  #dispatch(")}`);
  });

  test("a receipt, and a receipt pruning replaced, are searched; the hit that matches is quoted", async () => {
    const model = await loadModel();
    const { q, id } = question(2); // the lockfile
    const line = '    "@hono/eslint-config": ["@hono/eslint-config@2.1.1", ""],';
    const hits = `2 hits for "@hono/eslint-config".\n[1] ctx_k2m3n4p5 (bash) lines 170-174\n 171- "@eslint/js": [],\n 172: ${line}`;
    const receipt = "[pi-sidecar] bash output (258.1 KiB, 2,340 lines) was stored instead of shown.\nSource ctx_k2m3n4p5: 70 chunks.";
    const prunedReceipt = `[pruned] bash "cat bun.lock": its output (258.1 KiB, 2,340 lines) is stored as ctx_k2m3n4p5. Search it: context_search {"query": "<distinctive words>", "source": "ctx_k2m3n4p5"}; or get lines: context_get {"source": "ctx_k2m3n4p5", "lines": "1-40"}`;
    for (const shown of [receipt, prunedReceipt]) {
      const asked = [user(WORK_TURNS[4]!.prompt), call(id, "bash", q.target.arguments), result(id, "bash", shown), ok, user(q.prompt)];
      const search = model({ messages: asked }) as Calls;
      expect(search.toolCalls[0]).toMatchObject({ name: "context_search", arguments: { query: q.query, source: "ctx_k2m3n4p5" } });
      const answered = model({ messages: [...asked, call("s1", "context_search", {}), result("s1", "context_search", hits)] });
      expect(answered).toEndWith(`ANSWER: ${JSON.stringify(line)}`);
    }
  });

  test("after a search: the matching hit with the lowest line number; a hit the list clipped is fetched whole", async () => {
    const model = await loadModel();
    const { q, id } = question(4); // the first type-check
    const receipt = "[pi-sidecar] bash output (136.0 KiB, 951 lines) was stored instead of shown.\nSource ctx_k2m3n4p5: 34 chunks.";
    const hits = [
      '2 hits for "src/utils/cookie.test.ts".',
      "[1] ctx_k2m3n4p5 (bash) lines 349-350",
      "350: src/utils/cookie.test.ts(12,3): error TS2593: Cannot find name 'it'.",
      "[2] ctx_k2m3n4p5 (bash) lines 345-346",
      "345- src/utils/concurrent.test.ts(66,7): error TS2304: Cannot find name 'expect'.",
      "346: src/utils/cookie.test.ts(4,1): error TS2593: Cannot find name 'describe'. Do you need to install type…",
    ].join("\n");
    const asked = [user(WORK_TURNS[6]!.prompt), call(id, "bash", q.target.arguments), result(id, "bash", receipt), ok, user(q.prompt)];
    const searched = [...asked, call("s1", "context_search", {}), result("s1", "context_search", hits)];
    const get = model({ messages: searched }) as Calls;
    expect(get.toolCalls[0]).toMatchObject({ name: "context_get", arguments: { source: "ctx_k2m3n4p5", lines: "346-346" } });
    const line = "src/utils/cookie.test.ts(4,1): error TS2593: Cannot find name 'describe'. Do you need to install type definitions?";
    const got = result("g1", "context_get", `[ctx_k2m3n4p5 lines 346-346 of 951]\n${line}`);
    expect(model({ messages: [...searched, call("g1", "context_get", {}), got] })).toEndWith(`ANSWER: ${JSON.stringify(line)}`);
  });

  test("an output pi cut, whose line is not in view, is grepped in the full-output file pi names", async () => {
    const model = await loadModel();
    const { q, id } = question(4); // the first type-check
    const tail =
      "src/utils/url.test.ts(9,1): error TS2593: Cannot find name 'describe'.\n\n[Showing lines 500-951 of 951 (50.0KB limit). Full output: /tmp/pi-bash-0123456789abcdef.log]\n\nCommand exited with code 2";
    const asked = [user(WORK_TURNS[6]!.prompt), call(id, "bash", q.target.arguments), result(id, "bash", tail), ok, user(q.prompt)];
    const grep = model({ messages: asked }) as Calls;
    expect(grep.toolCalls[0]).toMatchObject({
      name: "bash",
      arguments: { command: `grep -m1 -P '${q.pattern}' '/tmp/pi-bash-0123456789abcdef.log'` },
    });
    const line = "src/utils/cookie.test.ts(4,1): error TS2593: Cannot find name 'describe'.";
    expect(model({ messages: [...asked, call("b1", "bash", {}), result("b1", "bash", line)] })).toEndWith(
      `ANSWER: ${JSON.stringify(line)}`,
    );
  });
});

test("a pointer to pi's cut of an output, whose line is not in it, leads to the full-output file pi named", async () => {
  const model = await loadModel();
  const { q, id } = question(4);
  const pointer = `[pruned] bash "tsc" (error) (50.0 KiB, 452 lines). Exact text: context_get {"source": "ctx_abcdefgh", "lines": "1-452"}`;
  const asked = [user(WORK_TURNS[6]!.prompt), call(id, "bash", q.target.arguments), result(id, "bash", pointer), ok, user(q.prompt)];
  const tail =
    "[ctx_abcdefgh lines 1-452 of 452]\nsrc/utils/url.test.ts(9,1): error.\n\n[Showing lines 500-951 of 951. Full output: /tmp/pi-bash-0123456789abcdef.log]";
  const grep = model({ messages: [...asked, call("g1", "context_get", {}), result("g1", "context_get", tail)] }) as Calls;
  expect(grep.toolCalls[0]).toMatchObject({
    name: "bash",
    arguments: { command: `grep -m1 -P '${q.pattern}' '/tmp/pi-bash-0123456789abcdef.log'` },
  });
});

describe("what a run sent", () => {
  const logged = (messages: Msg[]): LoggedCall => ({ callIndex: 0, systemPrompt: "s", tools: [], messages });
  test("appending messages is no change; a result turned into a pointer is one", () => {
    const a = [user("u1"), call("c1", "read", {}), result("c1", "read", FILE)];
    const b = [...a, ok, user("u2")];
    const c = [a[0]!, a[1]!, result("c1", "read", "[pruned] read x"), ...b.slice(3), user("u3")];
    const changes = prefixChanges([logged(a), logged(b), logged(c)]);
    expect(changes).toEqual([{ call: 2, turn: 3, toPointers: 1, other: 0, systemOrTools: false }]);
  });

  test("an ideal cache holds the previous request's unchanged prefix, up to the first message that changed", () => {
    const a = [user("u1"), call("c1", "read", {}), result("c1", "read", FILE)];
    const b = [...a, ok, user("u2")];
    const c = [a[0]!, a[1]!, result("c1", "read", "[pruned] read x"), ...b.slice(3)];
    const [va, vb, vc] = tokensOf([logged(a), logged(b), logged(c)]);
    expect(va!.cached).toBe(0);
    expect(vb!.cached).toBe(va!.tokens); // all of a, unchanged
    expect(vc!.cached).toBeLessThan(vb!.tokens - vb!.tokens / 2); // the definitions and two messages, not the file
    expect(vc!.cached).toBeGreaterThan(vc!.definitions);
  });
});
