/**
 * `pi-sidecar kota ...`: code intelligence from the shell, inside a repository or with --repo DIR.
 * `--json` prints the contract's shapes (paths relative to the repository root, `/` separators);
 * those shapes are a stable interface. The code index loads only when the command runs.
 */
import type { KotaAnswer, KotaBackendName, KotaRequest } from "../../../kota/index.ts";
import {
  COMMAND_JIT_SCALE,
  loadKotaService,
  renderDeps,
  renderImpact,
  renderIndex,
  renderSearch,
  renderStatus,
  renderTaskContext,
  renderUsages,
  scaleJit,
} from "../../../kota/index.ts";
import { type Command, type CommandContext, positiveInt, printJson, str, UsageError } from "../command.ts";

const SUBCOMMANDS = ["index", "search", "deps", "usages", "impact", "context", "status", "restart"] as const;
type Sub = (typeof SUBCOMMANDS)[number];

const USAGE = [
  "pi-sidecar kota index [--full]",
  "       pi-sidecar kota search QUERY [--output paths|compact|snippet] [--limit N]",
  "       pi-sidecar kota deps FILE [--direction dependents|dependencies|both] [--depth N] [--no-tests]",
  "       pi-sidecar kota usages SYMBOL [--file F] [--no-tests]",
  "       pi-sidecar kota impact --modify F[,F..] [--create F[,F..]] [--delete F[,F..]] [--description TEXT]",
  "       pi-sidecar kota context FILE... | status | restart",
  "       (each: [--repo DIR] [--backend builtin|kotadb] [--json])",
].join("\n");

function choice<T extends string>(value: string | boolean | undefined, flag: string, values: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !values.includes(value as T))
    throw new UsageError(`${flag} takes one of ${values.join(", ")}, got ${JSON.stringify(value)}`);
  return value as T;
}

function files(value: string | boolean | undefined): string[] {
  return typeof value === "string"
    ? value
        .split(",")
        .map((f) => f.trim())
        .filter(Boolean)
    : [];
}

function request(sub: Sub, ctx: CommandContext, repo: string, backend: KotaBackendName | undefined): KotaRequest {
  const v = ctx.values;
  const args = ctx.positionals.slice(1);
  const base = { repo, ...(backend ? { backend } : {}) };
  const includeTests = v["no-tests"] === true ? false : undefined;
  const one = (what: string) => {
    if (args.length !== 1)
      throw new UsageError(`kota ${sub} takes one ${what}${args.length > 1 ? ` (got ${args.length}: quote it if it has spaces)` : ""}`);
    return args[0]!;
  };
  switch (sub) {
    case "index":
      return { ...base, op: "index", full: v.full === true };
    case "search": {
      const query = args.join(" ").trim();
      if (!query) throw new UsageError("kota search needs a QUERY: text or a symbol name");
      return {
        ...base,
        op: "search",
        query,
        output: choice(v.output, "--output", ["paths", "compact", "snippet"] as const),
        limit: positiveInt(v.limit, "--limit"),
      };
    }
    case "deps": {
      const depth = positiveInt(v.depth, "--depth");
      if (depth !== undefined && depth > 3) throw new UsageError("--depth takes 1, 2 or 3");
      return {
        ...base,
        op: "deps",
        file: one("FILE"),
        direction: choice(v.direction, "--direction", ["dependents", "dependencies", "both"] as const),
        depth,
        includeTests,
      };
    }
    case "usages":
      return { ...base, op: "usages", symbol: one("SYMBOL"), file: str(v.file), includeTests };
    case "impact": {
      const modify = files(v.modify);
      const create = files(v.create);
      const del = files(v.delete);
      if (modify.length + create.length + del.length === 0)
        throw new UsageError("kota impact needs --modify, --create or --delete with file paths");
      return { ...base, op: "impact", modify, create, delete: del, description: str(v.description) };
    }
    case "context":
      if (args.length === 0) throw new UsageError("kota context needs one or more FILEs");
      return { ...base, op: "taskContext", files: args, includeTests };
    case "status":
      return { ...base, op: "status" };
    case "restart":
      return { ...base, op: "restart" };
  }
}

/** The stable --json shape of each answer. */
function jsonOf(a: KotaAnswer): unknown {
  if (a.op === "index") {
    const r = a.result;
    return { repository: r.repository, files: r.files, symbols: r.symbols, references: r.references, ms: r.ms };
  }
  if (a.op === "deps") {
    const r = a.result;
    return {
      file: r.file,
      direction: r.direction,
      dependencies: r.dependencies,
      dependents: r.dependents,
      unresolved: r.unresolved,
      ...(r.unresolvedWorkspace ? { unresolvedWorkspace: r.unresolvedWorkspace } : {}),
      ...(r.unresolvedImporters ? { unresolvedImporters: r.unresolvedImporters } : {}),
    };
  }
  if (a.op === "usages") {
    const r = a.result;
    return {
      symbol: r.symbol,
      definedIn: r.definedIn,
      usages: r.usages,
      ...(r.total !== undefined ? { total: r.total } : {}),
      ...(r.note ? { note: r.note } : {}),
      ...(r.incomplete ? { incomplete: r.incomplete } : {}),
    };
  }
  return a.result;
}

async function textOf(a: KotaAnswer): Promise<string> {
  switch (a.op) {
    case "index":
      return renderIndex(a.result);
    case "search":
      return renderSearch(a.result, 0).text;
    case "deps":
      return renderDeps(a.result, 0).text;
    case "usages":
      return renderUsages(a.result, 0).text;
    case "impact":
      return renderImpact(a.result, 0).text;
    case "taskContext":
      return renderTaskContext(a.result, 0).text;
    case "status":
    case "restart":
      return renderStatus(a.result);
  }
}

export const kotaCommand: Command = {
  name: "kota",
  summary: "code intelligence for TS/JS: index, search, deps, usages, impact, context, status",
  usage: USAGE,
  options: {
    repo: { type: "string", help: "the repository (default: the current directory's)", value: "DIR" },
    backend: { type: "string", help: "builtin or kotadb (default: kota.backend)", value: "B" },
    full: { type: "boolean", help: "index: re-parse every file" },
    output: { type: "string", help: "search: paths, compact or snippet", value: "O" },
    limit: { type: "string", help: "search: most files or lines (default 20)", value: "N" },
    direction: { type: "string", help: "deps: dependents, dependencies or both", value: "D" },
    depth: { type: "string", help: "deps: 1-3 (default 1)", value: "N" },
    file: { type: "string", help: "usages: the defining file", value: "F" },
    modify: { type: "string", help: "impact: files to modify, comma-separated", value: "F,.." },
    create: { type: "string", help: "impact: files to create", value: "F,.." },
    delete: { type: "string", help: "impact: files to delete", value: "F,.." },
    description: { type: "string", help: "impact: the change, briefly", value: "TEXT" },
    "no-tests": { type: "boolean", help: "deps, usages, context: leave test files out" },
  },
  async run(ctx) {
    const sub = ctx.positionals[0];
    if (!sub || !SUBCOMMANDS.includes(sub as Sub)) {
      throw new UsageError(
        sub ? `unknown kota command "${sub}"; use one of ${SUBCOMMANDS.join(", ")}` : `kota needs a command: ${SUBCOMMANDS.join(", ")}`,
      );
    }
    const backend = choice(ctx.values.backend, "--backend", ["builtin", "kotadb"] as const);
    const { resolve } = await import("node:path");
    const repo = resolve(ctx.cwd, str(ctx.values.repo) ?? ".");
    const req = request(sub as Sub, ctx, repo, backend);
    // One command per process: its burst of cold code is not worth compiling hot (kota/jit-policy.ts).
    scaleJit(COMMAND_JIT_SCALE);
    const { createKotaService } = await loadKotaService();
    const { debugLog } = await import("../../../debug.ts");
    const service = createKotaService({
      dbPath: ctx.loaded.config.db,
      config: ctx.loaded.config,
      log: debugLog(ctx.env),
      freshnessMs: 0,
      watch: false,
    });
    try {
      const r = await service.handle(req);
      if (!r.ok) {
        ctx.err(`pi-sidecar: ${r.message}\n`);
        return 1;
      }
      if (ctx.json) printJson(ctx, jsonOf(r));
      else ctx.out(`${await textOf(r)}\n`);
      return 0;
    } finally {
      await service.close();
    }
  },
};
