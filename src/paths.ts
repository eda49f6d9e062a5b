import { homedir } from "node:os";
import { realpathSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";

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

/** A path as the model wrote it for a tool ("@x", "~/x", relative) made absolute against `cwd`. */
export function absolutePath(cwd: string, path: string): string {
  const p = path.replace(/^@/, "");
  if (p === "~" || p.startsWith("~/")) return resolve(homedir(), p.slice(2));
  return isAbsolute(p) ? p : resolve(cwd, p);
}

/** The file a path ends at, through symlinks; the path itself when it cannot be resolved. */
export function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
