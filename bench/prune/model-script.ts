/**
 * The scripted model of the benchmark session (a FAKE_SCRIPT module for test/e2e/pi/fake-provider.ts).
 * It knows the plan by each turn's prompt. A work turn makes its tool calls, then answers. A
 * question finds the earlier call's result in the messages (by its call id) and answers from
 * what it sees: a result in view that holds the line gives it directly; a pruning pointer is
 * followed with the context_get call it names (and the continuation a cut answer names); a
 * receipt's source is searched; a result pi cut, whose line is not in view, is grepped in the
 * full-output file pi names. The answer quotes the line exactly: `ANSWER: "<line as JSON>"`.
 * Tool call ids are made from the turn and step, so every run of the session uses the same ones.
 */
import { type Turn, targetCallId } from "./plan.ts";

const SOURCE = `
const text = (m) => (Array.isArray(m.content) ? m.content.map((c) => (c.type === "text" ? c.text : "")).join("") : String(m.content ?? ""));
const GET = /context_get (\\{[^}]*\\})/;
const CONTINUE = /\\n\\[cut at the size cap; continue with context_get (\\{[^}]*\\})\\]$/;
const HEADER = /^\\[ctx_[0-9a-z]+ lines \\d+-\\d+ of \\d+\\]\\n/;
const SOURCE_ID = /ctx_[2-9a-hjkmnp-z]{8}/;
const FULL_OUTPUT = /Full output: ([^\\]\\n]+)\\]/;
const STORED_AS = /is stored as (ctx_[0-9a-z]+). Search it/;
const quote = (s) => "'" + s.replaceAll("'", "'\\\\''") + "'";

const answer = (line, how) => line === undefined ? "I could not find that line (" + how + ")." : "Here it is, " + how + ".\\nANSWER: " + JSON.stringify(line);

function question(q, before, mine, id) {
  const re = new RegExp(q.pattern);
  const results = mine.filter((m) => m.role === "toolResult");
  if (results.length === 0) {
    const r = before.find((m) => m.role === "toolResult" && m.toolCallId === q.targetId);
    if (!r) return "I cannot find that call in our conversation.";
    const t = text(r);
    if (t.startsWith("[pruned]")) {
      // A pruned receipt: its output is searched, like the receipt's.
      const stored = STORED_AS.exec(t);
      if (stored) return { toolCalls: [{ id: id(0), name: "context_search", arguments: { query: q.query, source: stored[1] } }] };
      const p = GET.exec(t);
      if (!p) return "The pointer names no context_get call: " + t.slice(0, 160);
      return { toolCalls: [{ id: id(0), name: "context_get", arguments: JSON.parse(p[1]) }] };
    }
    if (t.startsWith("[pi-sidecar]")) {
      const source = SOURCE_ID.exec(t);
      if (!source) return "The receipt names no stored source: " + t.slice(0, 120);
      return { toolCalls: [{ id: id(0), name: "context_search", arguments: { query: q.query, source: source[0] } }] };
    }
    const line = t.split("\\n").find((l) => re.test(l));
    if (line !== undefined) return answer(line, "from the result still in view");
    const full = FULL_OUTPUT.exec(t);
    if (full) return { toolCalls: [{ id: id(0), name: "bash", arguments: { command: "grep -m1 -P " + quote(q.pattern) + " " + quote(full[1]) } }] };
    return answer(undefined, "not in the result I was shown");
  }
  const last = results.at(-1);
  if (last.isError && last.toolName !== "bash") return "Retrieval failed: " + text(last).slice(0, 200);
  if (last.toolName === "context_search") {
    // The first matching line in the output (hits come by relevance); a line the hit list clipped is fetched whole.
    const hits = text(last).split("\\n").map((l) => /^\\s*(\\d+): (.*)$/.exec(l)).filter((m) => m && re.test(m[2]));
    const first = hits.sort((a, b) => Number(a[1]) - Number(b[1]))[0];
    if (!first) return answer(undefined, "not in the search's hits");
    const source = SOURCE_ID.exec(text(last));
    if (first[2].endsWith("…") && source) return { toolCalls: [{ id: id(results.length), name: "context_get", arguments: { source: source[0], lines: first[1] + "-" + first[1] } }] };
    return answer(first[2], "from a search of the stored output");
  }
  if (last.toolName === "bash") return answer(text(last).split("\\n").find((l) => re.test(l)), "from pi's full-output file");
  const more = CONTINUE.exec(text(last));
  if (more) return { toolCalls: [{ id: id(results.length), name: "context_get", arguments: JSON.parse(more[1]) }] };
  const whole = results.filter((r) => r.toolName === "context_get").map((r) => text(r).replace(HEADER, "").replace(CONTINUE, "")).join("");
  const line = whole.split("\\n").find((l) => re.test(l));
  // The stored text is pi's cut of the output (it was never a receipt): the whole output is in the file pi named.
  const full = line === undefined ? FULL_OUTPUT.exec(whole) : null;
  if (full) return { toolCalls: [{ id: id(results.length), name: "bash", arguments: { command: "grep -m1 -P " + quote(q.pattern) + " " + quote(full[1]) } }] };
  return answer(line, "from the stored text (" + results.length + " context_get call" + (results.length === 1 ? "" : "s") + ")");
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
  return work(turn, index, mine);
};

/** A work turn: its planned calls in order; a read answered with a pointer to stored text is followed first (the agent wants the text). */
function work(turn, index, mine) {
  const planned = mine.filter((m) => m.role === "assistant" && Array.isArray(m.content) && m.content.some((c) => c.type === "toolCall" && /_s\\d+_/.test(c.id))).length;
  const lastAssistant = mine.map((m) => m.role).lastIndexOf("assistant");
  const fresh = mine.slice(lastAssistant + 1).filter((m) => m.role === "toolResult");
  const follow = fresh.flatMap((r) => {
    const t = text(r);
    const p = r.toolName === "read" && t.startsWith("[readcache: stored]") ? GET.exec(t) : r.toolName === "context_get" ? CONTINUE.exec(t) : null;
    return p ? [JSON.parse(p[1])] : [];
  });
  if (follow.length > 0) return { toolCalls: follow.map((a, k) => ({ id: "call_t" + (index + 1) + "_f" + lastAssistant + "_" + k, name: "context_get", arguments: a })) };
  if (planned < turn.steps.length) return { toolCalls: turn.steps[planned].map((s, k) => ({ id: "call_t" + (index + 1) + "_s" + planned + "_" + k, ...s })) };
  return turn.answer;
}
`;

/** The module's source with the plan inlined (each question with its target's call id). */
export function modelScript(plan: readonly Turn[]): string {
  const withIds = plan.map((t) => (t.kind === "question" ? { ...t, targetId: targetCallId(t.target, t.occurrence) } : t));
  return `const PLAN = ${JSON.stringify(withIds)};\n${SOURCE}`;
}
