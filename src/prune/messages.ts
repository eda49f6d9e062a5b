/**
 * The conversation as the pruner sees it: pi's message shapes (user, assistant with tool calls,
 * toolResult with text and image parts), which map one to one onto other agents' histories.
 * Anything else (system or custom messages) passes through untouched.
 */

export type TextPart = { type: "text"; text: string };
export type ImagePart = { type: "image"; data: string; mimeType: string };
export type ToolCallPart = { type: "toolCall"; id: string; name: string; arguments?: Record<string, unknown> };

export type Message = { role: string; [key: string]: unknown };
export type ToolResultMessage = Message & {
  role: "toolResult";
  toolCallId: string;
  toolName: string;
  content: (TextPart | ImagePart | { type: string })[];
  details?: unknown;
  isError?: boolean;
};

/** One tool result with what the pruner needs to judge it. */
export type ResultView = {
  /** Its position in the message list. */
  index: number;
  callId: string;
  tool: string;
  /** The arguments of the call that produced it (from the assistant's tool call). */
  args: Record<string, unknown>;
  text: string;
  isError: boolean;
  images: boolean;
  /** User messages after it: 0 for the current turn. */
  turnsAgo: number;
  details: unknown;
};

/** A result with its key: its call id as stored (redacted) and its text's hash. */
export type Keyed = { view: ResultView; key: string; id: string; hash: string };

export function isToolResult(m: Message): m is ToolResultMessage {
  return m.role === "toolResult" && typeof m.toolCallId === "string" && Array.isArray(m.content);
}

/** A part that is an object with a type (a conversation from elsewhere may hold anything). */
const isPart = (c: unknown): c is { type: string } =>
  typeof c === "object" && c !== null && typeof (c as { type?: unknown }).type === "string";

export function textOf(content: readonly unknown[]): string {
  return content
    .filter((c): c is TextPart => isPart(c) && c.type === "text" && typeof (c as TextPart).text === "string")
    .map((c) => c.text)
    .join("\n");
}

/** Every tool result, oldest first, with its call's arguments and how many user turns ago it was. */
export function resultsOf(messages: readonly Message[]): ResultView[] {
  const args = new Map<string, Record<string, unknown>>();
  for (const m of messages) {
    if (m.role !== "assistant" || !Array.isArray(m.content)) continue;
    for (const part of m.content as (ToolCallPart | null)[]) {
      if (part?.type === "toolCall" && typeof part.id === "string") args.set(part.id, part.arguments ?? {});
    }
  }
  const views: ResultView[] = [];
  let users = 0;
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === "user") users++;
    if (!isToolResult(m)) continue;
    views.push({
      index: i,
      callId: m.toolCallId,
      tool: m.toolName,
      args: args.get(m.toolCallId) ?? {},
      text: textOf(m.content),
      isError: m.isError === true,
      images: m.content.some((c) => isPart(c) && c.type === "image"),
      turnsAgo: users,
      details: m.details,
    });
  }
  return views.reverse();
}
