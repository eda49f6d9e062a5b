/**
 * The backend-neutral contract of code intelligence: both the built-in index and the KotaDB
 * backend answer these calls with these shapes. Paths in and out are relative to the
 * repository root with `/` separators; absolute paths inside the repository are accepted too.
 * Expected failures are `{ ok: false, code, message }` values whose message says what to do next.
 */
import type { Result } from "../errors.ts";

export type KotaBackendName = "builtin" | "kotadb";

/** Failure codes every backend uses for the same situations. */
export const KOTA_ERRORS = {
  /** A path that resolves outside the repository root. */
  FILE_OUTSIDE_REPO: "FILE_OUTSIDE_REPO",
  /** The repository has never been indexed. */
  REPO_NOT_INDEXED: "REPO_NOT_INDEXED",
  /** A file inside the repository that is not in the index (missing, ignored, not TS/JS, too big). */
  NOT_INDEXED: "NOT_INDEXED",
  /** No symbol of that name (in that file). */
  NO_SUCH_SYMBOL: "NO_SUCH_SYMBOL",
  /** An argument out of range or missing (depth 9, an empty query, no files). */
  BAD_INPUT: "BAD_INPUT",
  /** The caller's AbortSignal fired; what was indexed so far is kept. */
  CANCELLED: "CANCELLED",
  /** The backend could not start or answer (KotaDB missing, a crashed server). */
  BACKEND_UNAVAILABLE: "BACKEND_UNAVAILABLE",
  /** An explicit index run of that repository is in progress; queries wait for it to finish. */
  INDEXING: "INDEXING",
  /** The first index of a repository needs the user's consent (kota.confirmIndex). */
  NEEDS_CONSENT: "NEEDS_CONSENT",
} as const;
export type KotaErrorCode = (typeof KOTA_ERRORS)[keyof typeof KOTA_ERRORS];

export type SymbolKind = "function" | "class" | "interface" | "type" | "enum" | "method" | "property" | "const" | "variable" | "namespace";

export type IndexOptions = {
  signal?: AbortSignal;
  onProgress?(done: number, total: number): void;
  /** Re-parse every file even if its mtime and hash are unchanged. */
  full?: boolean;
};

/** A file that failed to parse (it is still indexed as far as its imports and text go), or could not be read. */
export type IndexFileError = { file: string; line?: number; message: string };

export type IndexResult = {
  repository: string;
  /** Totals in the index after this run. */
  files: number;
  symbols: number;
  references: number;
  ms: number;
  /** Files parsed in this run (new or changed) and files dropped from the index. */
  changed?: number;
  removed?: number;
  errors?: IndexFileError[];
};

export type SearchOutput = "paths" | "compact" | "snippet";
export type SearchScope = "code" | "symbols";

export type SearchOptions = {
  query: string;
  output?: SearchOutput;
  /** Most files (paths), lines (compact, snippet) and symbols to return; default 20, at most 100. */
  limit?: number;
  scope?: SearchScope[];
  /** Lines of context around each match in snippet output (default 2, at most 10). */
  contextLines?: number;
};

/** One matching line (compact and snippet output); snippet adds the lines around it. */
export type CodeMatch = { path: string; line: number; context: string; before?: string[]; after?: string[] };
/** One matching file (paths output). */
export type PathMatch = { path: string; matches: number };

export type SymbolMatch = {
  name: string;
  kind: SymbolKind;
  file: string;
  lines: [number, number];
  exported: boolean;
  /** The class, interface or namespace a member belongs to. */
  parent?: string;
  signature?: string;
};

export type SearchResult = {
  query: string;
  output: SearchOutput;
  /** Filled for output "paths". */
  paths: PathMatch[];
  /** Filled for output "compact" and "snippet". */
  code: CodeMatch[];
  symbols: SymbolMatch[];
  /** How many files and symbols matched in all, before the limit. */
  total: { files: number; symbols: number };
  tips?: string[];
};

export type DepsDirection = "dependents" | "dependencies" | "both";

export type DepsOptions = {
  file: string;
  direction?: DepsDirection;
  /** 1 to 3 (default 1). */
  depth?: number;
  /** Include test files in the result (default true). */
  includeTests?: boolean;
};

/** Files at distance 1 in `direct`; files first reached at distance 2, 3 under `indirect["2"]`, `indirect["3"]`. */
export type DepsLevels = { direct: string[]; indirect: Record<string, string[]> };

export type DepsResult = {
  file: string;
  /** The direction asked for: the other one's levels are empty because they were not asked for. */
  direction: DepsDirection;
  /** Files this file imports (empty when only dependents were asked for). */
  dependencies: DepsLevels;
  /** Files that import this file (empty when only dependencies were asked for). */
  dependents: DepsLevels;
  /** This file's relative (or path-mapped) import specifiers that resolve to no file. */
  unresolved: string[];
  /** This file's imports that name a package of this repository but resolve to no file: its dependencies may be incomplete. */
  unresolvedWorkspace?: string[];
  /** Files that import the workspace package this file belongs to by a specifier that resolves to no file: its dependents may be incomplete. */
  unresolvedImporters?: { package: string; files: number };
};

export type UsageKind = "call" | "new" | "type" | "property" | "import" | "reexport" | "export" | "jsx" | "value";

export type UsagesOptions = {
  /** A name (`compose`), or `Class.member` for a member. */
  symbol: string;
  /** The defining file, to pick one of several symbols of that name. */
  file?: string;
  includeTests?: boolean;
  /** Most usages to return (default all). */
  limit?: number;
};

export type Usage = { file: string; line: number; column: number; kind: UsageKind; context: string };

export type UsagesResult = {
  symbol: string;
  definedIn: { file: string; line: number }[];
  usages: Usage[];
  /** Set when `limit` cut the list: how many usages there are in all. */
  total?: number;
  /** Set for members (methods, properties): usages on receivers of unknown type are matched by name. */
  note?: string;
  /** Set when files import packages of this repository that did not resolve: uses through them are missing. */
  incomplete?: string;
};

export type ImpactOptions = { modify?: string[]; create?: string[]; delete?: string[]; limit?: number };

export type AffectedFile = {
  file: string;
  /** Why it is affected: changed itself, imports a changed file, or depends on one through another file. */
  why: string;
  /** How many files import this one directly, and how many more reach it in 2-3 steps. */
  direct: number;
  indirect: number;
};

export type ImpactResult = {
  risk: "low" | "medium" | "high";
  summary: string;
  affected: AffectedFile[];
  /** Test files that exist in the index and depend on (or sit beside) the changed files: run these. */
  tests: string[];
  warnings: string[];
  /** Totals before `limit` cut `affected` and `tests`. */
  counts: { affected: number; direct: number; indirect: number; tests: number };
};

export type TaskContextOptions = {
  files: string[];
  /** Most dependents listed per file (default 10). */
  maxDependents?: number;
  includeTests?: boolean;
  includeSymbols?: boolean;
};

export type TaskContextFile = {
  file: string;
  dependencies: string[];
  /** The dependents that are themselves most depended on, first. */
  dependents: string[];
  dependentCount: number;
  tests: string[];
  symbols: { name: string; kind: SymbolKind; line: number; exported: boolean; parent?: string }[];
};

export type TaskContextResult = { files: TaskContextFile[]; warnings: string[] };

export type StatusResult = {
  backend: KotaBackendName;
  repository: string;
  indexed: boolean;
  files: number;
  symbols: number;
  references: number;
  /** ISO time of the last completed index run, or null. */
  indexedAt: string | null;
  /** Indexed files changed or deleted on disk since (they are re-indexed by the next query). */
  stale: number;
  /** Files that had parse errors at their last indexing. */
  errors: number;
  /** The KotaDB process behind the kotadb backend (absent for builtin). */
  server?: ServerInfo;
};

/** The status of a repository not indexed (yet) by `backend`. */
export function notIndexedStatus(backend: KotaBackendName, repository: string): StatusResult {
  return { backend, repository, indexed: false, files: 0, symbols: 0, references: 0, indexedAt: null, stale: 0, errors: 0 };
}

export type ServerState = "stopped" | "starting" | "running" | "crashed" | "failed";

export type ServerInfo = {
  state: ServerState;
  pid: number | null;
  /** Starts after the first (crash restarts and explicit ones). */
  restarts: number;
  lastError: string | null;
  /** The command line that starts it. */
  command: string;
};

/** One contract, two backends: the built-in index and KotaDB over MCP. */
export type CodeIndexBackend = {
  readonly name: KotaBackendName;
  readonly root: string;
  index(opts?: IndexOptions): Promise<Result<IndexResult>>;
  search(opts: SearchOptions): Promise<Result<SearchResult>>;
  deps(opts: DepsOptions): Promise<Result<DepsResult>>;
  usages(opts: UsagesOptions): Promise<Result<UsagesResult>>;
  impact(opts: ImpactOptions): Promise<Result<ImpactResult>>;
  taskContext(opts: TaskContextOptions): Promise<Result<TaskContextResult>>;
  status(): Promise<Result<StatusResult>>;
  close(): Promise<void>;
};
