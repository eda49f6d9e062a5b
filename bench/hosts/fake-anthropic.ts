/**
 * A scripted stand-in for the Anthropic Messages API on 127.0.0.1, so a real Claude Code process
 * can be driven offline (ANTHROPIC_BASE_URL): each request that offers tools gets the next step
 * of the script (a tool call, or the final text); every request is recorded, so what Claude
 * Code sent the model (its tool results) can be read back. No real model is ever called.
 */

export type Step = { tool: string; input: Record<string, unknown> } | { text: string };

export type Recorded = { path: string; body: Record<string, unknown> };

type Block = { type: string; text?: string; tool_use_id?: string; content?: unknown; is_error?: boolean; name?: string };
type Message = { role: string; content: string | Block[] };

/** The text of every tool_result block in a request, in order, with its id and error flag. */
export function toolResults(body: Record<string, unknown>): { id: string; text: string; isError: boolean }[] {
  const out: { id: string; text: string; isError: boolean }[] = [];
  for (const m of (body.messages as Message[] | undefined) ?? []) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type !== "tool_result") continue;
      const text =
        typeof b.content === "string"
          ? b.content
          : ((b.content as Block[] | undefined) ?? []).map((c) => (c.type === "text" ? (c.text ?? "") : `[${c.type}]`)).join("\n");
      out.push({ id: b.tool_use_id ?? "", text, isError: b.is_error === true });
    }
  }
  return out;
}

function sse(events: [string, unknown][]): string {
  return events.map(([e, d]) => `event: ${e}\ndata: ${JSON.stringify(d)}\n\n`).join("");
}

function reply(step: Step, n: number, stream: boolean, model: string): Response {
  const content =
    "tool" in step
      ? [{ type: "tool_use", id: `toolu_fake_${n}`, name: step.tool, input: step.input }]
      : [{ type: "text", text: step.text }];
  const stop = "tool" in step ? "tool_use" : "end_turn";
  const usage = { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const message = {
    id: `msg_fake_${n}`,
    type: "message",
    role: "assistant",
    model,
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
  if (!stream) return Response.json(message);
  const block =
    "tool" in step
      ? [
          ["content_block_start", { type: "content_block_start", index: 0, content_block: { ...content[0], input: {} } }],
          [
            "content_block_delta",
            { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(step.input) } },
          ],
        ]
      : [
          ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
          ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: step.text } }],
        ];
  const body = sse([
    ["message_start", { type: "message_start", message: { ...message, content: [], stop_reason: null } }],
    ...(block as [string, unknown][]),
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    ["message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } }],
    ["message_stop", { type: "message_stop" }],
  ]);
  return new Response(body, { headers: { "content-type": "text/event-stream" } });
}

/** Serves the script; `requests` fills as Claude Code calls. */
export function serveFakeAnthropic(script: Step[]) {
  const requests: Recorded[] = [];
  let next = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      let body: Record<string, unknown> = {};
      try {
        body = (await req.json()) as Record<string, unknown>;
      } catch {
        // GETs and empty bodies
      }
      requests.push({ path: url.pathname, body });
      if (url.pathname.endsWith("/count_tokens")) return Response.json({ input_tokens: 100 });
      if (!url.pathname.endsWith("/messages")) return Response.json({});
      const model = typeof body.model === "string" ? body.model : "claude-fake";
      const offersTools = Array.isArray(body.tools) && body.tools.length > 0;
      // Side requests (titles, summaries, quota checks) offer no tools: a short text answers them.
      if (!offersTools) return reply({ text: "ok" }, 0, body.stream === true, model);
      const step = script[next] ?? { text: "done" };
      next++;
      return reply(step, next, body.stream === true, model);
    },
  });
  return { url: `http://127.0.0.1:${server.port}`, requests, stop: () => server.stop(true) };
}
