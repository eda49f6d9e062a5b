/**
 * `pi-sidecar prune`: the pruning pi does before each model call, for any agent's history.
 * Reads the conversation as JSON on stdin (pi's message shapes: user, assistant with toolCall
 * parts, toolResult), prints what to send instead and what was pruned. Run it before every model
 * call with the same session id: the pointers stay the same between batches.
 */
import type { Message } from "../../../prune/index.ts";
import { CLI_CALLS, TOOL_CALLS } from "../../../store/index.ts";
import { type Command, printJson, str, UsageError } from "../command.ts";

const SHAPE =
  'stdin must be JSON: an array of messages, or {"messages": [...], "pinned": [call ids], "usagePercent": N}; each message has a "role" ' +
  '(user, assistant, toolResult); a toolResult has "toolCallId", "toolName" and "content" parts ({"type": "text", "text": ...}).';

/** What is wrong with one message's shape, or null. */
function messageProblem(m: Message): string | null {
  const content = m.content;
  if (m.role === "toolResult") {
    if (typeof m.toolCallId !== "string" || typeof m.toolName !== "string") return 'a toolResult needs string "toolCallId" and "toolName"';
    if (!Array.isArray(content)) return 'a toolResult\'s "content" must be an array of parts';
  }
  if (!Array.isArray(content)) return null;
  const part = content.findIndex((c) => typeof c !== "object" || c === null || typeof (c as { type?: unknown }).type !== "string");
  if (part >= 0) return `content part ${part} is ${JSON.stringify(content[part])}, not an object with a "type"`;
  const text = content.findIndex((c: { type: string; text?: unknown }) => c.type === "text" && typeof c.text !== "string");
  return text >= 0 ? `content part ${text} is a text part without a string "text"` : null;
}

function parseInput(raw: string): { messages: Message[]; pinned?: string[]; usagePercent?: number | null } {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (error) {
    throw new UsageError(`${(error as Error).message}. ${SHAPE}`);
  }
  const body = Array.isArray(value) ? { messages: value } : (value as Record<string, unknown> | null);
  const messages = body?.messages;
  if (!Array.isArray(messages)) throw new UsageError(`no "messages" array. ${SHAPE}`);
  const bad = messages.findIndex((m) => typeof m !== "object" || m === null || typeof (m as { role?: unknown }).role !== "string");
  if (bad >= 0) throw new UsageError(`message ${bad} has no "role". ${SHAPE}`);
  for (const [i, m] of (messages as Message[]).entries()) {
    const problem = messageProblem(m);
    if (problem) throw new UsageError(`message ${i} (${m.role}): ${problem}. ${SHAPE}`);
  }
  const pinned = body?.pinned;
  if (pinned !== undefined && !(Array.isArray(pinned) && pinned.every((p) => typeof p === "string")))
    throw new UsageError('"pinned" must be an array of tool call ids.');
  const usage = body?.usagePercent;
  if (usage !== undefined && usage !== null && typeof usage !== "number") throw new UsageError('"usagePercent" must be a number.');
  return { messages: messages as Message[], pinned: pinned as string[] | undefined, usagePercent: usage as number | null | undefined };
}

export const pruneCommand: Command = {
  name: "prune",
  summary: "prune an agent's conversation (JSON on stdin): old tool results become pointers to their stored text",
  usage: "pi-sidecar prune --session ID [--calls tools|cli] < conversation.json",
  options: {
    session: { type: "string", help: "the conversation's id (pointers are kept per call id; the session is recorded)", value: "ID" },
    calls: { type: "string", help: "how pointers phrase retrieval: tools (context_get, default) or cli", value: "STYLE" },
  },
  async run(ctx) {
    const style = str(ctx.values.calls) ?? "tools";
    if (style !== "tools" && style !== "cli") throw new UsageError(`--calls takes tools or cli, got ${JSON.stringify(style)}`);
    if (ctx.stdinIsTTY) throw new UsageError(`nothing on stdin. ${SHAPE}`);
    const input = parseInput(new TextDecoder().decode(await ctx.readStdin()));
    // One-shot: what it stores is indexed before the process exits.
    const engine = ctx.createEngine({ calls: style === "tools" ? TOOL_CALLS : CLI_CALLS, background: "inline" });
    const out = await engine.prune({ ...input, session: str(ctx.values.session) ?? null, project: ctx.cwd });
    printJson(ctx, out);
    return 0;
  },
};
