/**
 * The kota_* tools (pi and `pi-sidecar mcp`): their specs and what they do. Every answer is text
 * within kota.budgetBytes: narrowed step by step when over (saying what was cut and how to narrow
 * the question), and stored in the context store with a receipt when even the narrowest is over.
 * The first index of a repository needs the user's consent (kota.confirmIndex); without a UI the
 * answer says how to give it.
 */
import { errorMessage } from "../../errors.ts";
import { fitAnswer } from "../../kota/answer-fit.ts";
import type { Rendering } from "../../kota/budget.ts";
import { KOTA_ERRORS } from "../../kota/contract.ts";
import { DEPS_LEVELS, DEPS_NARROW, renderDeps } from "../../kota/render-deps.ts";
import { IMPACT_LEVELS, IMPACT_NARROW, renderImpact, renderTaskContext, TASK_LEVELS, TASK_NARROW } from "../../kota/render-impact.ts";
import { renderSearch, SEARCH_LEVELS, SEARCH_NARROW } from "../../kota/render-search.ts";
import { renderIndex, renderUsages, USAGES_LEVELS, USAGES_NARROW } from "../../kota/render-usages.ts";
import type { KotaAnswer, KotaLike, KotaRequest } from "../../kota/request.ts";
import { type ToolArgs as Args, checkToolArgs, type KotaParamSpec, type KotaToolSpec } from "../../kota/tool-args.ts";
import { jsonSchema } from "./definitions.ts";
import type { ToolOutcome } from "./handlers.ts";

export type { KotaParamSpec, KotaToolSpec };

export type KotaToolScope = {
  /** The project folder: the repository is found from it. */
  project: string;
  session?: string;
  budgetBytes: number;
  confirmIndex: boolean;
  /** Asks the user; absent without a UI (headless pi, MCP). */
  confirm?: (title: string, message: string) => Promise<boolean>;
  /** Stores an answer that does not fit the budget in the context store; returns its receipt. */
  store?: (text: string, label: string) => Promise<string>;
  /** Progress while indexing. */
  onProgress?: (text: string) => void;
  signal?: AbortSignal;
  /** How a user allows the first index where there is no UI, e.g. "run /kota index". */
  consentHint?: string;
};

export type KotaToolHandler = (kota: KotaLike, args: Args, scope: KotaToolScope) => Promise<ToolOutcome>;

// Every word here is sent to the model on every turn.
export const KOTA_INDEX: KotaToolSpec = {
  name: "kota_index",
  label: "Kota index",
  description: "Index the repository's TS/JS for kota_* tools (first run asks the user; later runs are incremental).",
  params: { path: { type: "string", description: "default: the project" } },
};

export const KOTA_SEARCH: KotaToolSpec = {
  name: "kota_search",
  label: "Kota search",
  description: "Find code text and symbol definitions. output: paths, compact (matching lines; default) or snippet (with context).",
  params: {
    query: { type: "string", description: "text or symbol name", required: true },
    output: { type: "string", description: "", values: ["paths", "compact", "snippet"] },
    limit: { type: "integer", description: "default 20", minimum: 1, maximum: 100 },
  },
};

export const KOTA_DEPS: KotaToolSpec = {
  name: "kota_deps",
  label: "Kota deps",
  description: "Files a file imports and files that import it, by import distance.",
  params: {
    file_path: { type: "string", description: "file, relative to the repository", required: true },
    direction: {
      type: "string",
      description: "default both",
      values: ["dependents", "dependencies", "both"],
    },
    depth: { type: "integer", description: "default 1", minimum: 1, maximum: 3 },
    include_tests: { type: "boolean", description: "default true" },
  },
};

export const KOTA_USAGES: KotaToolSpec = {
  name: "kota_usages",
  label: "Kota usages",
  description: "Where a symbol is used, followed through imports and re-exports (not by name).",
  params: {
    symbol: { type: "string", description: "name or Class.member", required: true },
    file: { type: "string", description: "defining file, when several define it" },
    include_tests: { type: "boolean", description: "default true" },
  },
};

export const KOTA_IMPACT: KotaToolSpec = {
  name: "kota_impact",
  label: "Kota impact",
  description: "Before a change: risk, affected files and why, and the existing tests to run.",
  params: {
    files_to_modify: { type: "string[]", description: "" },
    files_to_create: { type: "string[]", description: "" },
    files_to_delete: { type: "string[]", description: "" },
    description: { type: "string", description: "the change, briefly" },
  },
};

export const KOTA_TASK_CONTEXT: KotaToolSpec = {
  name: "kota_task_context",
  label: "Kota task context",
  description: "For files you will work on: their imports, top dependents, tests and symbols.",
  params: {
    files: { type: "string[]", description: "paths", required: true },
    include_tests: { type: "boolean", description: "default true" },
    include_symbols: { type: "boolean", description: "default true" },
    max_impacted_files: { type: "integer", description: "dependents per file (default 10)", minimum: 1, maximum: 50 },
  },
};

const USAGES_READ_LIMIT = 2000;

export const KOTA_TOOLS: readonly KotaToolSpec[] = [KOTA_INDEX, KOTA_SEARCH, KOTA_DEPS, KOTA_USAGES, KOTA_IMPACT, KOTA_TASK_CONTEXT];

/** Tools whose answer carries meaning worth keeping (pinning): everything but indexing. */
export const MEANINGFUL_KOTA_TOOLS: ReadonlySet<string> = new Set(KOTA_TOOLS.filter((t) => t !== KOTA_INDEX).map((t) => t.name));

/** The kota tools as MCP `tools/list` entries (all read-only but kota_index). */
export function kotaMcpTools() {
  return KOTA_TOOLS.map((spec) => ({
    name: spec.name,
    title: spec.label,
    description: spec.description,
    inputSchema: jsonSchema(spec),
    annotations: {
      title: spec.label,
      readOnlyHint: spec !== KOTA_INDEX,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    },
  }));
}

const problem = (text: string, details: Record<string, unknown> = {}): ToolOutcome => ({ text, isError: true, details });
const list = (v: unknown): string[] | undefined => (Array.isArray(v) ? (v as string[]) : undefined);

/** Runs a request; when the repository was never indexed, indexes it first if allowed (asking when there is a UI). */
async function withIndex(
  kota: KotaLike,
  request: KotaRequest,
  scope: KotaToolScope,
): Promise<{ answer: KotaAnswer } | { outcome: ToolOutcome }> {
  const first = await kota.kota(request, { signal: scope.signal });
  if (first.ok) return { answer: first };
  if (first.code !== KOTA_ERRORS.REPO_NOT_INDEXED) return { outcome: problem(first.message, { code: first.code }) };
  const consent = await askConsent(scope, first.message);
  if (consent) return { outcome: consent };
  const indexed = await runIndex(kota, request.repo, scope);
  if ("outcome" in indexed) return indexed;
  const again = await kota.kota(request, { signal: scope.signal });
  return again.ok ? { answer: again } : { outcome: problem(again.message, { code: again.code }) };
}

/** null when indexing may go ahead; otherwise the answer that explains why not. */
async function askConsent(scope: KotaToolScope, why: string): Promise<ToolOutcome | null> {
  if (!scope.confirmIndex) return null;
  const where = why.replace(/^The repository (\S+) .*$/s, "$1");
  if (scope.confirm) {
    const yes = await scope.confirm(
      "Index this repository?",
      `pi-sidecar will index the TS/JS of ${where} for code intelligence (a few seconds for most repositories).`,
    );
    return yes
      ? null
      : problem("The user declined indexing this repository; answer without the kota_* tools.", { code: KOTA_ERRORS.NEEDS_CONSENT });
  }
  return problem(
    `${where} is not indexed yet, and the first index needs the user's consent. Ask the user to ${scope.consentHint ?? "run `pi-sidecar kota index` in the repository"}, ` +
      'or to set "kota": {"confirmIndex": false} in pi-sidecar.json; meanwhile answer without the kota_* tools.',
    { code: KOTA_ERRORS.NEEDS_CONSENT },
  );
}

async function runIndex(kota: KotaLike, repo: string, scope: KotaToolScope): Promise<{ answer: KotaAnswer } | { outcome: ToolOutcome }> {
  scope.onProgress?.("kota: indexing...");
  const r = await kota.kota(
    { op: "index", repo },
    {
      signal: scope.signal,
      onProgress: (done, total) => {
        if (total > 0) scope.onProgress?.(`kota: indexing ${done}/${total} files`);
      },
    },
  );
  return r.ok ? { answer: r } : { outcome: problem(r.message, { code: r.code }) };
}

/** Fits the rendering to the budget (stored with a receipt when even the narrowest is over). */
function budgeted(
  answer: KotaAnswer,
  tool: string,
  render: (level: number) => Rendering,
  levels: number,
  narrow: string,
  scope: KotaToolScope,
): Promise<ToolOutcome> {
  return fitAnswer(
    { render, levels, narrow, budgetBytes: scope.budgetBytes, store: scope.store, label: `${tool} ${answer.repository}` },
    {
      op: answer.op,
      backend: answer.backend,
      repository: answer.repository,
    },
  );
}

const kotaIndex: KotaToolHandler = async (kota, args, scope) => {
  const repo = (args.path as string | undefined) ?? scope.project;
  const status = await kota.kota({ op: "status", repo }, { signal: scope.signal });
  if (!status.ok) return problem(status.message, { code: status.code });
  if (status.op === "status" && !status.result.indexed) {
    const consent = await askConsent(scope, `The repository ${status.repository} has not been indexed yet.`);
    if (consent) return consent;
  }
  const r = await runIndex(kota, repo, scope);
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "index") return problem("unexpected answer");
  return {
    text: renderIndex(r.answer.result),
    isError: false,
    details: { op: "index", backend: r.answer.backend, repository: r.answer.repository, files: r.answer.result.files },
  };
};

const kotaSearch: KotaToolHandler = async (kota, args, scope) => {
  const r = await withIndex(
    kota,
    {
      op: "search",
      repo: scope.project,
      query: args.query as string,
      output: args.output as "paths" | undefined,
      limit: args.limit as number | undefined,
    },
    scope,
  );
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "search") return problem("unexpected answer");
  const result = r.answer.result;
  return budgeted(r.answer, "kota_search", (l) => renderSearch(result, l), SEARCH_LEVELS, SEARCH_NARROW, scope);
};

const kotaDeps: KotaToolHandler = async (kota, args, scope) => {
  const r = await withIndex(
    kota,
    {
      op: "deps",
      repo: scope.project,
      file: args.file_path as string,
      direction: args.direction as "both" | undefined,
      depth: args.depth as number | undefined,
      includeTests: args.include_tests as boolean | undefined,
    },
    scope,
  );
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "deps") return problem("unexpected answer");
  const result = r.answer.result;
  return budgeted(r.answer, "kota_deps", (l) => renderDeps(result, l), DEPS_LEVELS, DEPS_NARROW, scope);
};

const kotaUsages: KotaToolHandler = async (kota, args, scope) => {
  const r = await withIndex(
    kota,
    {
      op: "usages",
      repo: scope.project,
      symbol: args.symbol as string,
      file: args.file as string | undefined,
      includeTests: args.include_tests as boolean | undefined,
      // Each use's line of code is read from disk: a symbol used 100,000 times must not read them all.
      limit: USAGES_READ_LIMIT,
    },
    scope,
  );
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "usages") return problem("unexpected answer");
  const result = r.answer.result;
  return budgeted(r.answer, "kota_usages", (l) => renderUsages(result, l), USAGES_LEVELS, USAGES_NARROW, scope);
};

const kotaImpact: KotaToolHandler = async (kota, args, scope) => {
  const r = await withIndex(
    kota,
    {
      op: "impact",
      repo: scope.project,
      modify: list(args.files_to_modify),
      create: list(args.files_to_create),
      delete: list(args.files_to_delete),
      description: args.description as string | undefined,
    },
    scope,
  );
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "impact") return problem("unexpected answer");
  const result = r.answer.result;
  return budgeted(r.answer, "kota_impact", (l) => renderImpact(result, l), IMPACT_LEVELS, IMPACT_NARROW, scope);
};

const kotaTaskContext: KotaToolHandler = async (kota, args, scope) => {
  const r = await withIndex(
    kota,
    {
      op: "taskContext",
      repo: scope.project,
      files: list(args.files) ?? [],
      includeTests: args.include_tests as boolean | undefined,
      includeSymbols: args.include_symbols as boolean | undefined,
      maxDependents: args.max_impacted_files as number | undefined,
    },
    scope,
  );
  if ("outcome" in r) return r.outcome;
  if (r.answer.op !== "taskContext") return problem("unexpected answer");
  const result = r.answer.result;
  return budgeted(r.answer, "kota_task_context", (l) => renderTaskContext(result, l), TASK_LEVELS, TASK_NARROW, scope);
};

const HANDLERS: Record<string, KotaToolHandler> = {
  [KOTA_INDEX.name]: kotaIndex,
  [KOTA_SEARCH.name]: kotaSearch,
  [KOTA_DEPS.name]: kotaDeps,
  [KOTA_USAGES.name]: kotaUsages,
  [KOTA_IMPACT.name]: kotaImpact,
  [KOTA_TASK_CONTEXT.name]: kotaTaskContext,
};

export function isKotaTool(name: string): boolean {
  return Object.hasOwn(HANDLERS, name);
}

/** Checks the arguments against the tool's spec, then runs it; every problem is an answer, never a throw. */
export async function runKotaTool(kota: KotaLike, name: string, raw: Record<string, unknown>, scope: KotaToolScope): Promise<ToolOutcome> {
  const spec = KOTA_TOOLS.find((t) => t.name === name);
  const handler = HANDLERS[name];
  if (!spec || !handler) return problem(`Unknown tool ${name}. Tools: ${KOTA_TOOLS.map((t) => t.name).join(", ")}.`);
  const checked = checkToolArgs(spec, raw ?? {});
  if ("problem" in checked) return problem(checked.problem);
  try {
    return await handler(kota, checked.args, scope);
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
