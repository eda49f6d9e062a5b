/**
 * The model-facing tools, defined once: names, descriptions that teach cheap retrieval, and
 * parameters in a small neutral form that the pi extension turns into TypeBox and the MCP
 * server into JSON Schema.
 */

import type { ToolSpec } from "../../tool-spec.ts";

export type { ParamSpec, ToolSpec } from "../../tool-spec.ts";

// Every definition is sent to the model on every turn: each word here has to earn its tokens.
export const CONTEXT_SEARCH: ToolSpec = {
  name: "context_search",
  label: "Context search",
  description:
    "Search output that pi-sidecar stored (a receipt names its source id). Query distinctive words or an exact " +
    "identifier/error text; hits show the matching lines with line numbers. Then context_get exact lines if needed.",
  params: {
    query: { type: "string", description: "distinctive words, identifier or error text", required: true },
    source: { type: "string", description: "source id from the receipt" },
    limit: { type: "integer", description: "max hits (default 5)", minimum: 1, maximum: 20 },
  },
};

export const CONTEXT_GET: ToolSpec = {
  name: "context_get",
  label: "Context get",
  description: 'Fetch exact stored text: source id plus lines "A-B" (from a hit or receipt) or a chunk number.',
  params: {
    source: { type: "string", description: "source id", required: true },
    lines: { type: "string", description: "e.g. 120-180" },
    chunk: { type: "integer", description: "chunk number", minimum: 1 },
    around: { type: "integer", description: "extra lines (or chunks) each side", minimum: 0, maximum: 200 },
  },
};

export const CONTEXT_STATS: ToolSpec = {
  name: "context_stats",
  label: "Context stats",
  description: "Tokens pi-sidecar kept out of context: stored, spent on receipts and retrieval, net saved.",
  params: {},
};

export const CONTEXT_PURGE: ToolSpec = {
  name: "context_purge",
  label: "Context purge",
  description: "Delete stored output: one source, older_than an age (2h, 7d), or this_session.",
  params: {
    source: { type: "string", description: "source id" },
    older_than: { type: "string", description: "age, e.g. 2h" },
    this_session: { type: "boolean", description: "this session's sources" },
  },
};

export const CONTEXT_INDEX: ToolSpec = {
  name: "context_index",
  label: "Context index",
  description:
    "Store a big file or text in pi-sidecar instead of reading it into context; returns a receipt with a source id " +
    "for context_search and context_get. Give path or text.",
  params: {
    path: { type: "string", description: "file path (relative to the server's directory or absolute)" },
    text: { type: "string", description: "text to store" },
    label: { type: "string", description: "what it is, e.g. the command that printed it" },
  },
};

export const CONTEXT_RUN: ToolSpec = {
  name: "context_run",
  label: "Context run",
  description:
    "Run a shell command (no terminal, no stdin). Small output comes back as is; large output is stored and you get a " +
    "receipt to context_search. Prefer it to your shell for builds, tests, logs and other noisy commands.",
  params: {
    command: { type: "string", description: "the command (bash)", required: true },
    cwd: { type: "string", description: "working folder (default: the project)" },
    timeout: { type: "integer", description: "seconds (default 120)", minimum: 1, maximum: 3600 },
  },
};

export const CONTEXT_FETCH: ToolSpec = {
  name: "context_fetch",
  label: "Context fetch",
  description:
    "Fetch an http(s) URL as text (HTML converted). The page is stored: a small one comes back whole, a large one as a " +
    "receipt to context_search. The same URL within a day is answered from the store.",
  params: {
    url: { type: "string", description: "http:// or https:// URL", required: true },
    refresh: { type: "boolean", description: "fetch again even if stored today" },
  },
};

/**
 * pi's model gets retrieval only: stats and purge are the user's, as /context-stats and
 * /context-purge. context_run and context_fetch stay out too: pi's own bash and fetch results
 * already pass through the tool_result hook, and each definition costs tokens on every turn.
 */
export const PI_TOOLS: readonly ToolSpec[] = [CONTEXT_SEARCH, CONTEXT_GET];
/** Other agents have no slash commands: the MCP server offers everything as tools. */
export const MCP_TOOLS: readonly ToolSpec[] = [
  CONTEXT_SEARCH,
  CONTEXT_GET,
  CONTEXT_STATS,
  CONTEXT_PURGE,
  CONTEXT_INDEX,
  CONTEXT_RUN,
  CONTEXT_FETCH,
];

export function jsonSchema(spec: ToolSpec): {
  type: "object";
  properties: Record<string, object>;
  required?: string[];
  additionalProperties: false;
} {
  const properties: Record<string, object> = {};
  const required: string[] = [];
  for (const [name, p] of Object.entries(spec.params)) {
    properties[name] =
      p.type === "string[]"
        ? { type: "array", items: { type: "string" }, description: p.description }
        : {
            type: p.type,
            description: p.description,
            ...(p.values ? { enum: [...p.values] } : {}),
            ...(p.minimum !== undefined ? { minimum: p.minimum } : {}),
            ...(p.maximum !== undefined ? { maximum: p.maximum } : {}),
          };
    if (p.required) required.push(name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}), additionalProperties: false };
}
