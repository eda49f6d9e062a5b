/**
 * What a context server offers besides tools: every stored source as a resource
 * (`ctx://source/{id}`, listed newest first, read whole up to a cap), a template for the same
 * URIs, completion of source ids for it, and subscriptions (accepted; stored text never changes,
 * so there is never an update to announce). Logging levels are the SDK's (it filters by them).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import {
  CompleteRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { Engine } from "../../engine.ts";
import { formatBytes } from "../../units.ts";

const PREFIX = "ctx://source/";
const TEMPLATE = `${PREFIX}{id}`;
const PAGE = 100;
/** A resource read returns at most this much (a source can be hundreds of MB); the text says how to get the rest. */
const MAX_READ_BYTES = 4 * 1024 * 1024;
const INVALID_PARAMS = -32602;
const RESOURCE_NOT_FOUND = -32002;

export const RESOURCE_CAPABILITIES = { resources: { subscribe: true, listChanged: false }, logging: {}, completions: {} } as const;

export function registerResources(server: Server, engine: Engine, scope: { project: string }): { subscribed: Set<string> } {
  const subscribed = new Set<string>();
  server.setRequestHandler(ListResourcesRequestSchema, async (request) => {
    const offset = Number(request.params?.cursor ?? 0) || 0;
    const sources = await engine.list({ project: scope.project }, offset + PAGE + 1);
    const page = sources.slice(offset, offset + PAGE);
    return {
      resources: page.map((s) => ({
        uri: `${PREFIX}${s.sourceId}`,
        name: s.sourceId,
        title: s.label ?? s.tool,
        description: `${s.tool} output${s.label ? ` (${s.label})` : ""}, ${formatBytes(s.bytes)}, ${s.lines} lines, stored ${new Date(s.createdAt).toISOString()}`,
        mimeType: "text/plain",
        size: s.bytes,
      })),
      ...(sources.length > offset + PAGE ? { nextCursor: String(offset + PAGE) } : {}),
    };
  });
  server.setRequestHandler(ListResourceTemplatesRequestSchema, async () => ({
    resourceTemplates: [
      {
        uriTemplate: TEMPLATE,
        name: "stored-output",
        title: "Stored tool output",
        description: "A source pi-sidecar stored, by its id (ctx_...).",
        mimeType: "text/plain",
      },
    ],
  }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const uri = request.params.uri;
    if (!uri.startsWith(PREFIX)) throw new McpError(INVALID_PARAMS, `Unknown resource ${uri}: resources here are ${TEMPLATE}.`);
    const id = uri.slice(PREFIX.length);
    const r = await engine.get({ source: id, lines: { from: 1, to: Number.MAX_SAFE_INTEGER }, maxBytes: MAX_READ_BYTES });
    if (!r.ok) throw new McpError(RESOURCE_NOT_FOUND, r.message, { uri });
    const note = r.truncated
      ? `\n[cut at ${formatBytes(MAX_READ_BYTES)}; the rest: context_get {"source": "${id}", "lines": "${r.lineEnd + 1}-${r.totalLines}"}]`
      : "";
    return { contents: [{ uri, mimeType: "text/plain", text: r.text + note }] };
  });
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    subscribed.add(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, async (request) => {
    subscribed.delete(request.params.uri);
    return {};
  });
  server.setRequestHandler(CompleteRequestSchema, async (request) => {
    const { ref, argument } = request.params;
    if (ref.type !== "ref/resource" || ref.uri !== TEMPLATE || argument.name !== "id")
      return { completion: { values: [], hasMore: false } };
    const ids = (await engine.list({ project: scope.project }, 1000)).map((s) => s.sourceId).filter((id) => id.startsWith(argument.value));
    return { completion: { values: ids.slice(0, 100), total: ids.length, hasMore: ids.length > 100 } };
  });
  return { subscribed };
}
