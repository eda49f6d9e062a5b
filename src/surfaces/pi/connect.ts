/**
 * Chooses how the pi extension reaches the engine: in-process when pi runs on Bun (bun:sqlite
 * is there), otherwise a `pi-sidecar serve --stdio` child. `pi.engine` in the config forces one.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { createRpcEngine } from "../rpc/client.ts";

export type Connection = { engine: Engine; transport: "in-process" | "stdio" };

/** Where this extension's files are (the bundle's folder once built). */
function hereDir(): string {
  try {
    return dirname(fileURLToPath(import.meta.url));
  } catch {
    return process.cwd();
  }
}

/**
 * The command that runs pi-sidecar: config/env first, then what `install pi` recorded, then the
 * binary beside the bundle (dist/), then `pi-sidecar` on PATH.
 */
export function findCommand(config: Readonly<Config>, dir = hereDir()): string[] {
  if (config.pi.binary) return [config.pi.binary];
  const installed = join(dir, "install.json");
  if (existsSync(installed)) {
    try {
      const recorded = JSON.parse(readFileSync(installed, "utf8")).command;
      if (
        Array.isArray(recorded) &&
        recorded.length > 0 &&
        recorded.every((a) => typeof a === "string") &&
        existsSync(recorded[0] as string)
      )
        return recorded as string[];
    } catch {
      // a broken install.json falls through to the next choice
    }
  }
  for (const candidate of [join(dir, "..", "pi-sidecar"), join(dir, "pi-sidecar")]) if (existsSync(candidate)) return [candidate];
  return ["pi-sidecar"];
}

/**
 * pi loads extensions through jiti, which would transpile the 4 MB engine bundle on every start
 * (over a second); the runtime's own require loads the CommonJS bundle as it is.
 */
function nativeRequire(path: string): unknown {
  return createRequire(pathToFileURL(path).href)(path);
}

export function runningOnBun(): boolean {
  return typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
}

export async function connect(config: Readonly<Config>, log: (line: string) => void, dir = hereDir()): Promise<Connection> {
  const wantInProcess = config.pi.engine === "in-process" || (config.pi.engine === "auto" && runningOnBun());
  if (wantInProcess) {
    if (!runningOnBun()) log("pi.engine is in-process but pi is not running on Bun; using the stdio engine");
    else {
      const bundle = join(dir, "engine.js");
      const source = existsSync(bundle) ? pathToFileURL(bundle).href : new URL("./in-process-engine.ts", import.meta.url).href;
      const mod = (existsSync(bundle) ? nativeRequire(bundle) : await import(source)) as typeof import("./in-process-engine.ts");
      // pi's event loop must not stall on another process's write lock: short SQLite waits, async retries.
      return { engine: mod.createEngine({ config, calls: mod.TOOL_CALLS, busyTimeoutMs: 250 }), transport: "in-process" };
    }
  }
  const [command, ...prefix] = findCommand(config, dir);
  const engine = createRpcEngine({
    command: command!,
    args: [...prefix, "serve", "--stdio", "--calls", "tools"],
    config,
    log,
    env: { PI_SIDECAR_DB: config.db },
  });
  return { engine, transport: "stdio" };
}
