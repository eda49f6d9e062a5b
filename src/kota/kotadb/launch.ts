/**
 * How KotaDB is started: `kota.command` + `kota.args` (default `bun x kotadb@next --stdio --toolset
 * core`), run from the repository root (KotaDB only indexes inside its working folder), with its
 * database beside ours rather than in the repository. When no `bun` is on PATH, our own runtime
 * stands in (`BUN_BE_BUN=1` makes the compiled binary behave as bun).
 *
 * It runs under our watchdog (watchdog.ts: this program in a helper role), which ends KotaDB and
 * everything it started whenever we end, SIGKILL of our whole process group included.
 */
import { basename, join } from "node:path";
import { sha256 } from "../../hash.ts";
import { helperCommand } from "../helper-process.ts";
import { KOTA_CMD_ENV } from "./watchdog.ts";

export type KotaDbLaunch = {
  command: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** The command line that runs KotaDB itself (for messages). */
  display: string;
  /** KotaDB's own database file. */
  database: string;
};

export type LaunchOptions = {
  command: string;
  args: readonly string[];
  root: string;
  /** The folder of the sidecar database; KotaDB's databases go in `kotadb/` under it. */
  dataDir: string;
  env?: Record<string, string | undefined>;
  which?: (command: string) => string | null;
  execPath?: string;
  /** How the watchdog is run (default: this program in the kotadb-watchdog role). */
  watchdog?: { command: string; args: string[]; env: Record<string, string> };
};

export const DEFAULT_BUN_ARGS = ["x", "kotadb@next", "--stdio", "--toolset", "core"];
const DEFAULT_ARGS = ["--stdio", "--toolset", "core"];
/** Variables KotaDB and bun need besides HOME, PATH, USER, SHELL, TERM (which the MCP SDK passes on). */
const PASSED_ENV = [
  "LANG",
  "LC_ALL",
  "LC_CTYPE",
  "TZ",
  "TMPDIR",
  "XDG_CACHE_HOME",
  "BUN_INSTALL",
  "BUN_INSTALL_CACHE_DIR",
  "NPM_CONFIG_REGISTRY",
];

export function kotadbLaunch(o: LaunchOptions): KotaDbLaunch {
  const env = o.env ?? process.env;
  const which = o.which ?? ((c: string) => Bun.which(c));
  const execPath = o.execPath ?? process.execPath;
  let command = o.command;
  const args = o.args.length > 0 ? [...o.args] : basename(command) === "bun" ? [...DEFAULT_BUN_ARGS] : [...DEFAULT_ARGS];
  const display = [command, ...args].join(" ");
  const out: Record<string, string> = {};
  for (const k of PASSED_ENV) if (env[k]) out[k] = env[k]!;
  // No bun on PATH: our own runtime stands in (the guard starts it with BUN_BE_BUN=1).
  if (command === "bun" && !which("bun")) command = execPath;
  const database = join(o.dataDir, "kotadb", `${sha256(o.root).slice(0, 16)}.db`);
  const watchdog = o.watchdog ?? helperCommand("kotadb-watchdog");
  return {
    command: watchdog.command,
    args: watchdog.args,
    cwd: o.root,
    env: { ...out, ...watchdog.env, KOTADB_PATH: database, [KOTA_CMD_ENV]: JSON.stringify([command, ...args]) },
    display,
    database,
  };
}
