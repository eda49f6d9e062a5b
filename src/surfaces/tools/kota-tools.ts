/**
 * The kota_* tools (pi and `pi-sidecar mcp`): their specs and what they do. Every answer is text
 * within kota.budgetBytes: narrowed step by step when over (saying what was cut and how to narrow
 * the question), and stored in the context store with a receipt when even the narrowest is over.
 * The first index of a repository needs the user's consent (kota.confirmIndex); without a UI the
 * answer says how to give it.
 */
import { errorMessage } from "../../errors.ts";
import type { Rendering } from "../../kota/index.ts";
import {
  type ArgsOf,
  ask,
  checkToolArgs,
  DEPS_LEVELS,
  DEPS_NARROW,
  fitAnswer,
  IMPACT_LEVELS,
  IMPACT_NARROW,
  KOTA_ERRORS,
  type KotaAnswer,
  type KotaLike,
  type KotaOp,
  type KotaOps,
  type KotaParamSpec,
  type KotaRequest,
  type KotaToolSpec,
  renderDeps,
  renderImpact,
  renderIndex,
  renderSearch,
  renderTaskContext,
  renderUsages,
  SEARCH_LEVELS,
  SEARCH_NARROW,
  TASK_LEVELS,
  TASK_NARROW,
  USAGES_LEVELS,
  USAGES_NARROW,
} from "../../kota/index.ts";
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

// Every word here is sent to the model on every turn.
export const KOTA_INDEX = {
  name: "kota_index",
  label: "Kota index",
  description: "Index the repository's TS/JS for kota_* tools (first run asks the user; later runs are incremental).",
  params: { path: { type: "string", description: "default: the project" } },
} as const satisfies KotaToolSpec;

export const KOTA_SEARCH = {
  name: "kota_search",
  label: "Kota search",
  description: "Find code text and symbol definitions. output: paths, compact (matching lines; default) or snippet (with context).",
  params: {
    query: { type: "string", description: "text or symbol name", required: true },
    output: { type: "string", description: "", values: ["paths", "compact", "snippet"] },
    limit: { type: "integer", description: "default 20", minimum: 1, maximum: 100 },
  },
} as const satisfies KotaToolSpec;

export const KOTA_DEPS = {
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
} as const satisfies KotaToolSpec;

export const KOTA_USAGES = {
  name: "kota_usages",
  label: "Kota usages",
  description: "Where a symbol is used, followed through imports and re-exports (not by name).",
  params: {
    symbol: { type: "string", description: "name or Class.member", required: true },
    file: { type: "string", description: "defining file, when several define it" },
    include_tests: { type: "boolean", description: "default true" },
  },
} as const satisfies KotaToolSpec;

export const KOTA_IMPACT = {
  name: "kota_impact",
  label: "Kota impact",
  description: "Before a change: risk, affected files and why, and the existing tests to run.",
  params: {
    files_to_modify: { type: "string[]", description: "" },
    files_to_create: { type: "string[]", description: "" },
    files_to_delete: { type: "string[]", description: "" },
    description: { type: "string", description: "the change, briefly" },
  },
} as const satisfies KotaToolSpec;

export const KOTA_TASK_CONTEXT = {
  name: "kota_task_context",
  label: "Kota task context",
  description: "For files you will work on: their imports, top dependents, tests and symbols.",
  params: {
    files: { type: "string[]", description: "paths", required: true },
    include_tests: { type: "boolean", description: "default true" },
    include_symbols: { type: "boolean", description: "default true" },
    max_impacted_files: { type: "integer", description: "dependents per file (default 10)", minimum: 1, maximum: 50 },
  },
} as const satisfies KotaToolSpec;

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

/** Runs a request; when the repository was never indexed, indexes it first if allowed (asking when there is a UI). */
async function withIndex<O extends KotaOp>(
  kota: KotaLike,
  request: KotaRequest<O>,
  scope: KotaToolScope,
): Promise<{ answer: KotaAnswer<O> } | { outcome: ToolOutcome }> {
  const first = await ask(kota, request, { signal: scope.signal });
  if (first.ok) return { answer: first };
  if (first.code !== KOTA_ERRORS.REPO_NOT_INDEXED) return { outcome: problem(first.message, { code: first.code }) };
  const consent = await askConsent(scope, first.message);
  if (consent) return { outcome: consent };
  const indexed = await runIndex(kota, request.repo, scope);
  if ("outcome" in indexed) return indexed;
  const again = await ask(kota, request, { signal: scope.signal });
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

async function runIndex(
  kota: KotaLike,
  repo: string,
  scope: KotaToolScope,
): Promise<{ answer: KotaAnswer<"index"> } | { outcome: ToolOutcome }> {
  scope.onProgress?.("kota: indexing...");
  const r = await ask(
    kota,
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

/** The operations a query tool asks for (indexing and status have their own paths). */
type QueryOp = Exclude<KotaOp, "index" | "status" | "restart">;

/**
 * A query tool: its spec, the request its (checked, typed) arguments make, and its answer as text
 * at decreasing detail within the budget.
 */
type QueryTool<S extends KotaToolSpec, O extends QueryOp> = {
  spec: S;
  request(args: ArgsOf<S>): { op: O } & KotaOps[O]["args"];
  render(result: KotaOps[O]["result"], level: number): Rendering;
  levels: number;
  narrow: string;
};

const queryTool = <S extends KotaToolSpec, O extends QueryOp>(t: QueryTool<S, O>) => t;

// Each use's line of code is read from disk: a symbol used 100,000 times must not read them all.
const USAGES_READ_LIMIT = 2000;

const QUERY_TOOLS = [
  queryTool({
    spec: KOTA_SEARCH,
    request: (a) => ({ op: "search", query: a.query, output: a.output, limit: a.limit }),
    render: renderSearch,
    levels: SEARCH_LEVELS,
    narrow: SEARCH_NARROW,
  }),
  queryTool({
    spec: KOTA_DEPS,
    request: (a) => ({ op: "deps", file: a.file_path, direction: a.direction, depth: a.depth, includeTests: a.include_tests }),
    render: renderDeps,
    levels: DEPS_LEVELS,
    narrow: DEPS_NARROW,
  }),
  queryTool({
    spec: KOTA_USAGES,
    request: (a) => ({ op: "usages", symbol: a.symbol, file: a.file, includeTests: a.include_tests, limit: USAGES_READ_LIMIT }),
    render: renderUsages,
    levels: USAGES_LEVELS,
    narrow: USAGES_NARROW,
  }),
  queryTool({
    spec: KOTA_IMPACT,
    request: (a) => ({
      op: "impact",
      modify: a.files_to_modify,
      create: a.files_to_create,
      delete: a.files_to_delete,
      description: a.description,
    }),
    render: renderImpact,
    levels: IMPACT_LEVELS,
    narrow: IMPACT_NARROW,
  }),
  queryTool({
    spec: KOTA_TASK_CONTEXT,
    request: (a) => ({
      op: "taskContext",
      files: a.files,
      includeTests: a.include_tests,
      includeSymbols: a.include_symbols,
      maxDependents: a.max_impacted_files,
    }),
    render: renderTaskContext,
    levels: TASK_LEVELS,
    narrow: TASK_NARROW,
  }),
];

/** Runs one query tool: the request from its arguments, then its answer fitted to the budget. */
async function runQuery<S extends KotaToolSpec, O extends QueryOp>(
  kota: KotaLike,
  tool: QueryTool<S, O>,
  args: ArgsOf<S>,
  scope: KotaToolScope,
): Promise<ToolOutcome> {
  const request = { ...tool.request(args), repo: scope.project } as KotaRequest<O>;
  const r = await withIndex(kota, request, scope);
  if ("outcome" in r) return r.outcome;
  const { answer } = r;
  return fitAnswer(
    {
      render: (level) => tool.render(answer.result, level),
      levels: tool.levels,
      narrow: tool.narrow,
      budgetBytes: scope.budgetBytes,
      store: scope.store,
      label: `${tool.spec.name} ${answer.repository}`,
    },
    { op: answer.op, backend: answer.backend, repository: answer.repository },
  );
}

async function runKotaIndex(kota: KotaLike, args: ArgsOf<typeof KOTA_INDEX>, scope: KotaToolScope): Promise<ToolOutcome> {
  const repo = args.path ?? scope.project;
  const status = await ask(kota, { op: "status", repo }, { signal: scope.signal });
  if (!status.ok) return problem(status.message, { code: status.code });
  if (!status.result.indexed) {
    const consent = await askConsent(scope, `The repository ${status.repository} has not been indexed yet.`);
    if (consent) return consent;
  }
  const r = await runIndex(kota, repo, scope);
  if ("outcome" in r) return r.outcome;
  return {
    text: renderIndex(r.answer.result),
    isError: false,
    details: { op: "index", backend: r.answer.backend, repository: r.answer.repository, files: r.answer.result.files },
  };
}

/** Each tool by name: checks its arguments against its spec, then runs with them typed. */
const HANDLERS: Record<string, (kota: KotaLike, raw: Record<string, unknown>, scope: KotaToolScope) => Promise<ToolOutcome>> = {
  [KOTA_INDEX.name]: (kota, raw, scope) => checked(KOTA_INDEX, raw, (args) => runKotaIndex(kota, args, scope)),
  ...Object.fromEntries(
    QUERY_TOOLS.map((tool) => [
      tool.spec.name,
      (kota: KotaLike, raw: Record<string, unknown>, scope: KotaToolScope) =>
        checked(tool.spec, raw, (args) => runQuery(kota, tool as QueryTool<KotaToolSpec, QueryOp>, args, scope)),
    ]),
  ),
};

/** The arguments checked against the spec (every problem an answer), then typed by it. */
function checked<S extends KotaToolSpec>(
  spec: S,
  raw: Record<string, unknown>,
  run: (args: ArgsOf<S>) => Promise<ToolOutcome>,
): Promise<ToolOutcome> {
  const c = checkToolArgs(spec, raw ?? {});
  if ("problem" in c) return Promise.resolve(problem(c.problem));
  // checkToolArgs enforced what ArgsOf<S> states: the types, the allowed values and the required keys.
  return run(c.args as ArgsOf<S>);
}

export function isKotaTool(name: string): boolean {
  return Object.hasOwn(HANDLERS, name);
}

/** Checks the arguments against the tool's spec, then runs it; every problem is an answer, never a throw. */
export async function runKotaTool(kota: KotaLike, name: string, raw: Record<string, unknown>, scope: KotaToolScope): Promise<ToolOutcome> {
  const handler = Object.hasOwn(HANDLERS, name) ? HANDLERS[name] : undefined;
  if (!handler) return problem(`Unknown tool ${name}. Tools: ${KOTA_TOOLS.map((t) => t.name).join(", ")}.`);
  try {
    return await handler(kota, raw, scope);
  } catch (error) {
    return problem(`pi-sidecar could not run ${name}: ${errorMessage(error)}`);
  }
}
