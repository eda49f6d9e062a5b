/**
 * The model-facing tools, defined once: names, descriptions that teach cheap retrieval, and
 * parameters in a small neutral form that the pi extension turns into TypeBox and the MCP
 * server into JSON Schema.
 */

export type ParamSpec = {
  type: "string" | "integer" | "boolean";
  description: string;
  required?: boolean;
  minimum?: number;
  maximum?: number;
};

export type ToolSpec = { name: string; label: string; description: string; params: Record<string, ParamSpec> };

export const CONTEXT_SEARCH: ToolSpec = {
  name: "context_search",
  label: "Context search",
  description:
    "Search tool output that pi-sidecar stored instead of showing (a receipt names its source id). " +
    "Query with 2-4 distinctive words or an exact identifier, path or error text from the receipt, and pass `source` " +
    "to stay in one output. Each hit lists the matching lines with their line numbers; fetch more around them with " +
    "context_get. Typos and partial identifiers are tolerated. Do not page through whole outputs.",
  params: {
    query: { type: "string", description: "distinctive words, an identifier or error text", required: true },
    source: { type: "string", description: "only this source id (from a receipt), e.g. ctx_ab12cd34" },
    tool: { type: "string", description: "only output of this tool, e.g. bash" },
    limit: { type: "integer", description: "at most this many hits (default 5)", minimum: 1, maximum: 20 },
  },
};

export const CONTEXT_GET: ToolSpec = {
  name: "context_get",
  label: "Context get",
  description:
    "Fetch exact stored text by source id: a line range such as \"120-180\" (best: take the numbers from a search hit " +
    "or the receipt) or a chunk number. `around` adds lines (with lines) or chunks (with chunk) on each side. " +
    "Answers are capped at about 16 KiB; a cut answer ends with the call that continues.",
  params: {
    source: { type: "string", description: "the source id from a receipt or search hit", required: true },
    lines: { type: "string", description: "line range A-B, or one line number" },
    chunk: { type: "integer", description: "chunk number (1-based)", minimum: 1 },
    around: { type: "integer", description: "neighbouring lines (with lines) or chunks (with chunk, max 5)", minimum: 0, maximum: 200 },
  },
};

export const CONTEXT_STATS: ToolSpec = {
  name: "context_stats",
  label: "Context stats",
  description: "How much output pi-sidecar kept out of the context in this session and overall, in tokens: stored, spent on receipts, spent on retrieval, net saved.",
  params: {},
};

export const CONTEXT_PURGE: ToolSpec = {
  name: "context_purge",
  label: "Context purge",
  description: "Delete stored output that is no longer needed: one source, everything older than an age (30m, 12h, 7d), or this session's sources.",
  params: {
    source: { type: "string", description: "delete this source id" },
    older_than: { type: "string", description: "delete sources older than this age, e.g. 2h or 7d" },
    this_session: { type: "boolean", description: "delete this session's sources" },
  },
};

export const CONTEXT_INDEX: ToolSpec = {
  name: "context_index",
  label: "Context index",
  description:
    "Store a large text or a file in pi-sidecar's context store instead of reading it into the context; returns a receipt " +
    "with a source id to search (context_search) and fetch exact lines (context_get). Give either `path` or `text`.",
  params: {
    path: { type: "string", description: "a file to index (absolute, or relative to the server's directory)" },
    text: { type: "string", description: "the text to index" },
    label: { type: "string", description: "what the text is, e.g. the command that printed it" },
  },
};

export const PI_TOOLS: readonly ToolSpec[] = [CONTEXT_SEARCH, CONTEXT_GET, CONTEXT_STATS, CONTEXT_PURGE];
export const MCP_TOOLS: readonly ToolSpec[] = [...PI_TOOLS, CONTEXT_INDEX];

export function jsonSchema(spec: ToolSpec): { type: "object"; properties: Record<string, object>; required?: string[]; additionalProperties: false } {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(spec.params)) {
    properties[name] = {
      type: p.type,
      description: p.description,
      ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
      ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
    };
    if (p.required) required.push(name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
