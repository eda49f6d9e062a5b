/** Diagnostics on stderr, only with PI_SIDECAR_DEBUG=1: which engine, worker fallbacks, MCP starts. */
type Env = Record<string, string | undefined>;

export type Log = (line: string) => void;

export function debugLog(env: Env = process.env, write: (text: string) => void = (t) => void process.stderr.write(t)): Log {
  return env.PI_SIDECAR_DEBUG === "1" ? (line) => write(`pi-sidecar: ${line}\n`) : () => {};
}
