import { existsSync } from "node:fs";
import { resolve } from "node:path";
import type { ConfigLoad } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { AppError } from "../../errors.ts";
import type { NextCalls } from "../../store/index.ts";

export type OptionSpec = { type: "string" | "boolean"; short?: string; help: string; value?: string };

export type CommandContext = {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
  json: boolean;
  loaded: ConfigLoad;
  engine: () => Engine;
  out: (text: string) => void;
  outBytes: (bytes: Uint8Array) => void;
  err: (text: string) => void;
  readStdin: () => Promise<Uint8Array>;
  stdinStream: () => AsyncIterable<Uint8Array>;
  stdinIsTTY: boolean;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Engine options beyond the config (how hints are phrased). */
  /** A long-lived engine (servers): its indexing and token counting run on a worker thread. */
  createEngine: (options?: { calls?: NextCalls; background?: "worker" | "inline"; leaveQueued?: boolean; indexHelper?: boolean }) => Engine;
};

export type Command = {
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  /**
   * Arguments that are no option of the command are text, even when they start with a dash: a
   * search query may be `--primary-color` or `-Wall` (`search --primary-color`, as `search -- --primary-color`).
   */
  dashedText?: boolean;
  /** Returns the exit code: 0 ok, 1 failure. Usage problems throw UsageError (exit 2). */
  run(ctx: CommandContext): Promise<number>;
};

/** A problem with how the command was called: exit 2, with the usage line. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export function positiveInt(value: string | boolean | undefined, flag: string, max?: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== "string" || !/^\d+$/.test(value) || Number(value) < 1 || (max !== undefined && Number(value) > max)) {
    const range = max === undefined ? "of 1 or more" : `from 1 to ${max}`;
    throw new UsageError(`${flag} takes a whole number ${range}, got ${JSON.stringify(value)}`);
  }
  return Number(value);
}

export function str(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** A path flag, absolute (relative to the current directory). */
export function pathOption(value: string | boolean | undefined): string | undefined {
  return typeof value === "string" ? resolve(value) : undefined;
}

export function printJson(ctx: CommandContext, value: unknown): void {
  ctx.out(`${JSON.stringify(value, null, 2)}\n`);
}

/** Shared filter flags. */
export const FILTER_OPTIONS: Record<string, OptionSpec> = {
  session: { type: "string", help: "only this session", value: "ID" },
  tool: { type: "string", help: "only this tool", value: "NAME" },
  project: { type: "string", help: "only this project directory", value: "DIR" },
};

/**
 * For a command that only reads (stats, search, get, list, export): a database path that does not
 * exist is an error, not a new empty database and its folders.
 */
export function requireDatabase(ctx: CommandContext): void {
  const path = ctx.loaded.config.db;
  if (existsSync(path)) return;
  throw new AppError(
    "NO_DATABASE",
    `no database at ${path}: nothing has been stored there. Check --db (or PI_SIDECAR_DB); pi-sidecar creates it when it stores its first output.`,
  );
}
