import { realpathSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";

type Env = Record<string, string | undefined>;

/** pi's agent directory: PI_CODING_AGENT_DIR replaces ~/.pi/agent. */
export function agentDir(env: Env = process.env): string {
  const dir = env.PI_CODING_AGENT_DIR;
  return dir && dir.trim() !== "" ? dir : join(env.HOME || homedir(), ".pi", "agent");
}

export function defaultDatabasePath(env: Env = process.env): string {
  return join(agentDir(env), "sidecar.db");
}

export function globalConfigPath(env: Env = process.env): string {
  return join(agentDir(env), "pi-sidecar.json");
}

export function projectConfigPath(cwd: string): string {
  return join(cwd, ".pi", "pi-sidecar.json");
}

/** "~" and "~/x" in the home folder (HOME, else the OS's idea of it); anything else unchanged. */
export function expandHome(path: string, env: Env = process.env): string {
  if (path === "~" || path.startsWith("~/")) return join(env.HOME || homedir(), path.slice(2));
  return path;
}

/** A path from a config file: "~/x" in the home folder, a relative path relative to `base` (the file's folder). */
export function resolveConfigPath(path: string, base: string, env: Env = process.env): string {
  return resolve(base, expandHome(path.trim(), env));
}

/** A path as the model wrote it for a tool ("@x", "~/x", relative) made absolute against `cwd`. */
export function absolutePath(cwd: string, path: string): string {
  return resolve(cwd, expandHome(path.replace(/^@/, "")));
}

/** The file a path ends at, through symlinks; the path itself when it cannot be resolved. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
