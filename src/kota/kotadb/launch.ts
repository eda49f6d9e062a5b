/**
 * How KotaDB is started: `kota.command` + `kota.args` (default `bun x kotadb@next --stdio --toolset
 * core`), run from the repository root (KotaDB only indexes inside its working folder), with its
 * database beside ours rather than in the repository. When no `bun` is on PATH, our own runtime
 * stands in (`BUN_BE_BUN=1` makes the compiled binary behave as bun).
 *
 * It runs under a small watchdog (our runtime with `-e`): KotaDB keeps running after its stdin
 * closes once its file watcher is up, so the watchdog holds the pipe instead and, when the pipe
 * closes (we exited, even by SIGKILL) or it is signalled, kills KotaDB's whole process group.
 */
import { basename, join } from "node:path";
import { sha256 } from "../../hash.ts";

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

// Plain JavaScript, run with `-e`: forwards stdin to KotaDB and ends KotaDB's process group when stdin ends.
export const WATCHDOG = `
const { spawn } = require("node:child_process");
const [cmd, ...args] = JSON.parse(process.env.PI_SIDECAR_KOTA_CMD);
const child = spawn(cmd, args, { stdio: ["pipe", "inherit", "inherit"], detached: true });
let stopping = false;
const group = (signal) => { try { process.kill(-child.pid, signal); } catch {} };
const stop = () => {
  if (stopping) return;
  stopping = true;
  group("SIGTERM");
  setTimeout(() => { group("SIGKILL"); process.exit(0); }, 2000).unref();
};
child.on("error", (e) => { process.stderr.write("cannot start " + cmd + ": " + e.message + "\\n"); process.exit(127); });
child.on("exit", (code, signal) => { if (!stopping) group("SIGKILL"); process.exit(code ?? (signal ? 1 : 0)); });
child.stdin.on("error", () => {});
process.stdin.on("data", (chunk) => child.stdin.write(chunk));
process.stdin.on("end", stop);
process.stdin.on("close", stop);
for (const s of ["SIGTERM", "SIGINT", "SIGHUP"]) process.on(s, stop);
`;

export function kotadbLaunch(o: LaunchOptions): KotaDbLaunch {
  const env = o.env ?? process.env;
  const which = o.which ?? ((c: string) => Bun.which(c));
  const execPath = o.execPath ?? process.execPath;
  let command = o.command;
  const args = o.args.length > 0 ? [...o.args] : basename(command) === "bun" ? [...DEFAULT_BUN_ARGS] : [...DEFAULT_ARGS];
  const display = [command, ...args].join(" ");
  const out: Record<string, string> = {};
  for (const k of PASSED_ENV) if (env[k]) out[k] = env[k]!;
  if (command === "bun" && !which("bun")) command = execPath;
  const database = join(o.dataDir, "kotadb", `${sha256(o.root).slice(0, 16)}.db`);
  return {
    command: execPath,
    args: ["-e", WATCHDOG],
    cwd: o.root,
    // BUN_BE_BUN: the compiled binary runs -e (and stands in for bun); plain bun ignores it.
    env: { ...out, BUN_BE_BUN: "1", KOTADB_PATH: database, PI_SIDECAR_KOTA_CMD: JSON.stringify([command, ...args]) },
    display,
    database,
  };
}
