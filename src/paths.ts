import { homedir } from "node:os";
import { join } from "node:path";

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
