/**
 * The scripted model of the benchmark session (a FAKE_SCRIPT module for test/e2e/pi/fake-provider.ts).
 * It knows the plan by each turn's prompt. A work turn makes its tool calls, then answers. A
 * question finds the earlier call's result by the call in the messages: a result still in view
 * gives the answer directly; a pruned one is a pointer, which it follows with the context_get
 * call the pointer names (and the continuation context_get names when its answer was cut);
 * a receipt's source is searched. The answer quotes the line exactly: `ANSWER: "<line as JSON>"`.
 * Tool call ids are made from the turn and step, so both runs of the session use the same ones.
 */
import type { Turn } from "./plan.ts";

const SOURCE = `
const text = (m) => (Array.isArray(m.content) ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("") : String(m.content ?? ""));
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
const GET = /context_get (\\{[^}]*\\})/;
const CONTINUE = /\\n\\[cut at the size cap; continue with context_get (\\{[^}]*\\})\\]$/;
const HEADER = /^\\[ctx_[0-9a-z]+ lines \\d+-\\d+ of \\d+\\]\\n/;
const SOURCE_ID = /ctx_[2-9a-hjkmnp-z]{8}/;

const answer = (line, how) => line === undefined ? "I could not find that line (" + how + ")." : "Here it is, " + how + ".\\nANSWER: " + JSON.stringify(line);

function findResult(before, target) {
  for (const m of before) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const c of m.content) {
      if (c.type === "toolCall" && c.name === target.name && same(c.arguments, target.arguments)) {
        return before.find((x) => x.role === "toolResult" && x.toolCallId === c.id) ?? null;
      }
    }
  }
  return null;
}

function question(q, before, mine, id) {
  const re = new RegExp(q.pattern);
  const results = mine.filter((m) => m.role === "toolResult");
  if (results.length === 0) {
    const r = findResult(before, q.target);
    if (!r) return "I cannot find that call in our conversation.";
    const t = text(r);
    if (q.via === "search") {
      const source = SOURCE_ID.exec(t);
      if (!source) return "The result names no stored source: " + t.slice(0, 120);
      return { toolCalls: [{ id: id(0), name: "context_search", arguments: { query: q.query, source: source[0] } }] };
    }
    if (!t.startsWith("[pruned]")) return answer(t.split("\\n").find((l) => re.test(l)), "from the result still in view");
    const p = GET.exec(t);
    if (!p) return "The pointer names no context_get call: " + t.slice(0, 160);
    return { toolCalls: [{ id: id(0), name: "context_get", arguments: JSON.parse(p[1]) }] };
  }
  const last = results.at(-1);
  if (last.isError) return "Retrieval failed: " + text(last).slice(0, 200);
  if (q.via === "search") {
    const hits = text(last).split("\\n").map((l) => /^\\s*\\d+: (.*)$/.exec(l)?.[1]).filter((l) => l !== undefined);
    return answer(hits.find((l) => re.test(l)), "from a search of the stored output");
  }
  const more = CONTINUE.exec(text(last));
  if (more) return { toolCalls: [{ id: id(results.length), name: "context_get", arguments: JSON.parse(more[1]) }] };
  const whole = results.map((r) => text(r).replace(HEADER, "").replace(CONTINUE, "")).join("");
  return answer(whole.split("\\n").find((l) => re.test(l)), "from the stored text (" + results.length + " context_get call" + (results.length === 1 ? "" : "s") + ")");
}

export default (ctx) => {
  const msgs = ctx.messages;
  const u = msgs.map((m) => m.role).lastIndexOf("user");
  const index = PLAN.findIndex((t) => t.prompt === text(msgs[u]));
  if (index === -1) return "I do not know this request.";
  const turn = PLAN[index];
  const mine = msgs.slice(u + 1);
  const step = mine.filter((m) => m.role === "assistant").length;
  const id = (k) => "call_t" + (index + 1) + "_s" + step + "_" + k;
  if (turn.kind === "question") return question(turn, msgs.slice(0, u), mine, id);
  if (step < turn.steps.length) return { toolCalls: turn.steps[step].map((s, k) => ({ id: id(k), ...s })) };
  return turn.answer;
};
`;

/** The module's source with the plan inlined. */
export function modelScript(plan: readonly Turn[]): string {
  return `const PLAN = ${JSON.stringify(plan)};\n${SOURCE}`;
}
