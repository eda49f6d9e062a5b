/**
 * The exact next calls a receipt or a search result suggests. Each surface speaks its own
 * language: the CLI suggests commands, the pi extension and MCP server suggest tool calls.
 */
export type NextCalls = {
  search(sourceId: string): string;
  lines(sourceId: string, from: number, to: number): string;
  chunk(sourceId: string, ordinal: number): string;
};

export const CLI_CALLS: NextCalls = {
  search: (id) => `pi-sidecar search "<distinctive words>" --source ${id}`,
  lines: (id, from, to) => `pi-sidecar get ${id} --lines ${from}-${to}`,
  chunk: (id, n) => `pi-sidecar get ${id} --chunk ${n}`,
};

export const TOOL_CALLS: NextCalls = {
  search: (id) => `context_search {"query": "<distinctive words>", "source": "${id}"}`,
  lines: (id, from, to) => `context_get {"source": "${id}", "lines": "${from}-${to}"}`,
  chunk: (id, n) => `context_get {"source": "${id}", "chunk": ${n}}`,
};

/**
 * The tools whose answers are the store's own text (TOOL_CALLS names them). An answer kept as a
 * source (pruning stores what a search returned) is never a search hit: the next search would
 * find the old answer instead of the output it came from.
 */
export const OWN_ANSWER_TOOLS: readonly string[] = ["context_search", "context_get"];
