/**
 * memory_search and memory_recall (pi and `pi-sidecar mcp`): their specs and what they do. Every
 * word of a spec is sent to the model on every turn, so the descriptions are short; the answers
 * say what to do next.
 */
import { errorMessage } from "../../errors.ts";
import { checkToolArgs, type KotaToolSpec as ToolSpec } from "../../kota/index.ts";
import { answerOf, type MemoryLike } from "../../memory/index.ts";
import { jsonSchema } from "./definitions.ts";
import type { ToolOutcome } from "./handlers.ts";

export type { ToolSpec as MemoryToolSpec };

export type MemoryToolScope = { project: string; session?: string | null };

// Every word here is sent to the model on every turn.
export const MEMORY_SEARCH: ToolSpec = {
  name: "memory_search",
  label: "Memory search",
  description: "Search this project's past sessions: prompts, corrections, decisions, errors. Newest wins.",
  params: {
    query: { type: "string", description: "words", required: true },
    limit: { type: "integer", description: "default 5", minimum: 1, maximum: 20 },
  },
};

export const MEMORY_RECALL: ToolSpec = {
  name: "memory_recall",
  label: "Memory recall",
  description: "Past sessions' context for a task: summaries, this session, related memories.",
  params: { prompt: { type: "string", description: "the task" } },
};

export const MEMORY_TOOLS: readonly ToolSpec[] = [MEMORY_SEARCH, MEMORY_RECALL];

export function isMemoryTool(name: string): boolean {
  return MEMORY_TOOLS.some((t) => t.name === name);
}

/** The memory tools as MCP `tools/list` entries (both read-only). */
export function memoryMcpTools() {
  return MEMORY_TOOLS.map((spec) => ({
    name: spec.name,
    title: spec.label,
    description: spec.description,
    inputSchema: jsonSchema(spec),
    annotations: { title: spec.label, readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  }));
}

const problem = (text: string, details: Record<string, unknown> = {}): ToolOutcome => ({ text, isError: true, details });

/** Checks the arguments, then asks the memory; every problem is an answer, never a throw. */
export async function runMemoryTool(
  memory: MemoryLike,
  name: string,
  raw: Record<string, unknown>,
  scope: MemoryToolScope,
): Promise<ToolOutcome> {
  const spec = MEMORY_TOOLS.find((t) => t.name === name);
  if (!spec) return problem(`Unknown tool ${name}. Tools: ${MEMORY_TOOLS.map((t) => t.name).join(", ")}.`);
  const checked = checkToolArgs(spec, raw ?? {});
  if ("problem" in checked) return problem(checked.problem);
  const args = checked.args;
  try {
    if (name === MEMORY_SEARCH.name) {
      const r = await memory.memory({
        type: "search",
        project: scope.project,
        session: scope.session ?? null,
        query: String(args.query),
        limit: args.limit as number | undefined,
      });
      if (!r.ok) return problem(r.message, { code: r.code });
      const a = answerOf(r, "search");
      return { text: a.text, isError: false, details: { memory: { hits: a.hits.map((h) => h.id) } } };
    }
    const prompt = typeof args.prompt === "string" ? args.prompt : "";
    const r = await memory.memory({ type: "recall", project: scope.project, session: scope.session ?? null, prompt });
    if (!r.ok) return problem(r.message, { code: r.code });
    const a = answerOf(r, "recall");
    const text = a.text === "" ? "Nothing remembered for this project yet (or memory is off: /memory on)." : a.text;
    return { text, isError: false, details: { memory: { items: a.items.map((i) => i.id), tokens: a.tokens } } };
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
