/**
 * fake-provider.ts — TEST-ONLY pi extension: a scripted, offline model.
 *
 *   pi --no-session -e fake-provider.ts --provider fake --model fake-1 -p "task"
 *
 * Env:
 *   FAKE_SCRIPT=/path/script.mjs   module whose default export is
 *                                  (ctx, helpers) => reply | Promise<reply>
 *              /path/script.json   or a JSON array of replies, one per model call
 *   FAKE_LOG=/path/log.jsonl       one JSON line per model call: everything the model was sent
 *                                  {callIndex, model, systemPrompt, tools, messages, sentChars, approxTokens, reply}
 *                                  (messages = model-visible fields only; tool-result `details` are not sent)
 *   FAKE_CACHE=1                   keep the faux core's prompt-cache usage simulation (default off)
 *
 * A reply is one of:
 *   "some text"                                   -> final text answer
 *   { text?, thinking?, toolCalls?: [{name, arguments, id?}] }
 *   a full pi-ai AssistantMessage ({role:"assistant", ...}, e.g. built with helpers.fauxAssistantMessage)
 *
 * ctx given to the script:
 *   { callIndex, assistantTurnsInContext, systemPrompt, tools:[{name,description,parameters}], messages (no system msgs),
 *     transcript (raw messages incl. system msgs), lastToolResults:[{toolName,toolCallId,text,isError}],
 *     lastToolResultText, lastUserText, model }
 *
 * Uses only pi's own pi-ai copy (resolved by pi's loader), so nothing to install.
 */
import { appendFileSync, readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import {
  createFauxCore,
  fauxAssistantMessage,
  fauxText,
  fauxThinking,
  fauxToolCall,
  getCurrentSystemPrompt,
  getCurrentTools,
} from "@earendil-works/pi-ai";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";

const PROVIDER = process.env.FAKE_PROVIDER ?? "fake";
const MODEL_ID = process.env.FAKE_MODEL ?? "fake-1";
const API = "fake-scripted-api"; // must not collide with any real api id

const MODEL = {
  id: MODEL_ID,
  name: "Fake scripted model",
  reasoning: false,
  input: ["text", "image"] as ("text" | "image")[],
  cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
  contextWindow: Number(process.env.FAKE_CONTEXT_WINDOW ?? 200000),
  maxTokens: 16384,
};

type Reply = any;
type ScriptFn = (ctx: any, helpers: any) => Reply | Promise<Reply>;

let scriptPromise: Promise<ScriptFn> | undefined;
function loadScript(): Promise<ScriptFn> {
  scriptPromise ??= (async () => {
    const p = process.env.FAKE_SCRIPT;
    if (!p) return () => "fake-provider: no FAKE_SCRIPT set";
    if (p.endsWith(".json")) {
      const steps = JSON.parse(readFileSync(p, "utf8"));
      if (!Array.isArray(steps)) throw new Error("FAKE_SCRIPT json must be an array of replies");
      return (ctx: any) => steps[ctx.callIndex] ?? "fake-provider: script exhausted";
    }
    const mod = await import(pathToFileURL(p).href);
    const fn = mod.default ?? mod.script;
    if (typeof fn !== "function") throw new Error(`FAKE_SCRIPT ${p} must export a default function`);
    return fn;
  })();
  return scriptPromise;
}

function textOf(content: any): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: any) => (b.type === "text" ? b.text : b.type === "image" ? `[image:${b.mimeType}]` : "")).join("\n");
}

/** What a real provider would actually transmit: drops details/usage/timestamps/api metadata. */
function modelView(m: any) {
  if (m.role === "toolResult")
    return { role: m.role, toolCallId: m.toolCallId, toolName: m.toolName, content: m.content, isError: m.isError };
  return { role: m.role, content: m.content };
}

function toAssistantMessage(reply: Reply) {
  if (reply && typeof reply === "object" && reply.role === "assistant") return reply;
  if (typeof reply === "string") return fauxAssistantMessage(reply);
  const blocks: any[] = [];
  if (reply?.thinking) blocks.push(fauxThinking(reply.thinking));
  if (reply?.text) blocks.push(fauxText(reply.text));
  for (const c of reply?.toolCalls ?? []) blocks.push(fauxToolCall(c.name, c.arguments ?? {}, c.id ? { id: c.id } : {}));
  if (blocks.length === 0) blocks.push(fauxText(""));
  const hasTools = blocks.some((b) => b.type === "toolCall");
  return fauxAssistantMessage(blocks, { stopReason: hasTools ? "toolUse" : "stop" });
}

export default function (pi: ExtensionAPI) {
  let callIndex = 0;
  // Tree navigation for tests that drive pi over RPC (which has no command for it): `/fake-nav <entry id>`.
  pi.registerCommand("fake-nav", {
    description: "test only: move the session's leaf to an entry",
    handler: async (args, ctx) => {
      await ctx.navigateTree(args.trim(), { summarize: false });
    },
  });
  const core = createFauxCore({ api: API, provider: PROVIDER, models: [MODEL], tokenSize: { min: 64, max: 64 } });

  pi.registerProvider(PROVIDER, {
    name: "Fake (scripted, offline)",
    baseUrl: "http://127.0.0.1:0",
    apiKey: "fake-key", // literal; no env/auth file needed
    api: API,
    models: [MODEL],
    streamSimple(model, context, options) {
      const index = callIndex++;
      const transcript = context.messages as any[];
      const systemPrompt = getCurrentSystemPrompt(transcript);
      const tools = getCurrentTools(transcript).map((t: any) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      }));
      const messages = transcript.filter((m) => m.role !== "system");
      // tool results after the last assistant message = results of the previous turn
      let lastAssistant = -1;
      messages.forEach((m, i) => {
        if (m.role === "assistant") lastAssistant = i;
      });
      const lastToolResults = messages
        .slice(lastAssistant + 1)
        .filter((m) => m.role === "toolResult")
        .map((m) => ({ toolName: m.toolName, toolCallId: m.toolCallId, text: textOf(m.content), isError: m.isError }));
      const lastUser = [...messages].reverse().find((m) => m.role === "user");
      const scriptCtx = {
        callIndex: index, // per process: restarts at 0 when pi is restarted on a saved session
        assistantTurnsInContext: messages.filter((m) => m.role === "assistant").length, // survives restarts
        systemPrompt,
        tools,
        messages,
        transcript,
        lastToolResults,
        lastToolResultText: lastToolResults.map((r) => r.text).join("\n"),
        lastUserText: lastUser ? textOf(lastUser.content) : "",
        model: { provider: model.provider, id: model.id },
      };

      // Queue one response step for this call; the faux core streams it (start/deltas/done).
      core.appendResponses([
        async () => {
          // let before_provider_request handlers see (and replace) a payload, like real providers
          await options?.onPayload?.({ fake: true, messages: transcript }, model);
          const fn = await loadScript();
          const reply = await fn(scriptCtx, { fauxAssistantMessage, fauxText, fauxToolCall, fauxThinking });
          const msg = toAssistantMessage(reply);
          if (process.env.FAKE_LOG) {
            const visible = messages.map(modelView);
            const sent = JSON.stringify({ systemPrompt, tools, messages: visible });
            appendFileSync(
              process.env.FAKE_LOG,
              `${JSON.stringify({
                callIndex: index,
                time: new Date().toISOString(),
                model: `${model.provider}/${model.id}`,
                systemPrompt,
                tools,
                messages: visible, // model-visible fields only (no details)
                sentChars: sent.length,
                approxTokens: Math.ceil(sent.length / 4),
                reply: msg.content,
              })}\n`,
            );
          }
          return msg;
        },
      ]);
      // The faux core simulates prompt caching per options.sessionId, which makes usage report
      // input AND cacheWrite for the same tokens. Drop sessionId (unless FAKE_CACHE=1) so that
      // usage.input ~= the whole prompt (chars/4) and ctx.getContextUsage() is not inflated.
      const streamOptions = process.env.FAKE_CACHE === "1" ? options : { ...options, sessionId: undefined };
      return core.streamSimple(model, context, streamOptions);
    },
  });
}
