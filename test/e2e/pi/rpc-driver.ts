/**
 * Drives pi in RPC mode (JSONL on stdin/stdout) for what print mode cannot do: compaction and
 * forking a session at an earlier message. Same offline scripted model as the harness.
 */
import { join } from "node:path";
import { readLines } from "../../../src/json-lines.ts";
import { tempDir } from "../../helpers.ts";
import { type PiVersion, piCli, RUNTIMES, type Runtime } from "./harness.ts";

type Json = Record<string, any>;

export type RpcPi = {
  readonly pid: number;
  command(cmd: Json): Promise<Json>;
  /** Sends a prompt and resolves with the last assistant text once pi has settled. */
  prompt(message: string): Promise<string>;
  close(): Promise<void>;
};

export function startRpcPi(
  runtime: Runtime,
  agentDir: string,
  cwd: string,
  script: string,
  env: Record<string, string> = {},
  pi?: PiVersion,
): RpcPi {
  const tmp = tempDir("pi-rpc-tmp-");
  const proc = Bun.spawn(
    [
      RUNTIMES[runtime],
      piCli(pi),
      "--mode",
      "rpc",
      "--session-dir",
      join(tmp, "sessions"),
      "-e",
      join(import.meta.dir, "fake-provider.ts"),
      "--provider",
      "fake",
      "--model",
      "fake-1",
    ],
    {
      cwd,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "pipe",
      env: {
        PATH: process.env.PATH ?? "",
        HOME: agentDir,
        TMPDIR: tmp,
        PI_CODING_AGENT_DIR: agentDir,
        PI_OFFLINE: "1",
        FAKE_SCRIPT: script,
        ...env,
      },
    },
  );
  const waiters = new Map<string, (r: Json) => void>();
  const listeners = new Set<(e: Json) => void>();
  let next = 0;
  void (async () => {
    for await (const raw of readLines(proc.stdout)) {
      const line = raw.replace(/\r$/, "");
      if (!line.trim()) continue;
      const record = JSON.parse(line) as Json;
      if (record.type === "response" && typeof record.id === "string") waiters.get(record.id)?.(record);
      else for (const l of listeners) l(record);
    }
  })();
  const command = (cmd: Json) =>
    new Promise<Json>((resolve, reject) => {
      const id = `c${next++}`;
      const timer = setTimeout(() => reject(new Error(`pi did not answer ${cmd.type}`)), 60_000);
      waiters.set(id, (r) => {
        clearTimeout(timer);
        if (r.success === false) reject(new Error(JSON.stringify(r)));
        else resolve(r);
      });
      proc.stdin.write(`${JSON.stringify({ ...cmd, id })}\n`);
    });
  return {
    pid: proc.pid,
    command,
    async prompt(message) {
      let last = "";
      const settled = new Promise<void>((resolve) => {
        const l = (e: Json) => {
          if (e.type === "agent_end") {
            const assistant = [...(e.messages ?? [])].reverse().find((m: Json) => m.role === "assistant");
            last = (assistant?.content ?? [])
              .filter((c: Json) => c.type === "text")
              .map((c: Json) => c.text)
              .join("");
          }
          if (e.type === "agent_settled") {
            listeners.delete(l);
            resolve();
          }
        };
        listeners.add(l);
      });
      await command({ type: "prompt", message });
      await settled;
      return last;
    },
    async close() {
      proc.stdin.end();
      proc.kill();
      await proc.exited;
    },
  };
}
