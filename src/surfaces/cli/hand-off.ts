/**
 * A one-shot capture answers with its receipt at once and leaves indexing and token counting to
 * a detached `pi-sidecar settle`, so the user's shell does not wait for them. If that process
 * cannot start or is killed, the queue stays in the database and the next search (or any
 * long-lived process) finishes it: a search never misses what a capture acknowledged.
 */
import { spawn } from "node:child_process";
import { selfCommand } from "../pi/install.ts";

export function settleDetached(dbPath: string, env: NodeJS.ProcessEnv): void {
  if (env.PI_SIDECAR_SETTLE === "inline") return;
  const [bin, ...prefix] = selfCommand();
  try {
    const child = spawn(bin!, [...prefix, "--db", dbPath, "settle", "--quiet"], { detached: true, stdio: "ignore", env });
    child.on("error", () => {}); // the next process finishes the queue
    child.unref();
  } catch {
    // Same: the queue waits in the database.
  }
}
