/**
 * Chooses how the pi extension reaches the engine: in-process when pi runs on Bun (bun:sqlite
 * is there), otherwise a `pi-sidecar serve --stdio` child. `pi.engine` in the config forces one.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import type { Config } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { installedPlatformBinary } from "../../platforms.ts";
import { createRpcEngine } from "../rpc/client.ts";

export type Connection = { engine: Engine; transport: "in-process" | "stdio" };

/**
 * The command that runs pi-sidecar: config/env first, then what `install pi` recorded, then the
 * binary beside the bundle (dist/), then this platform's package that npm installed with the
 * extension (`pi install npm:pi-sidecar`), then `pi-sidecar` on PATH.
 */
export function findCommand(config: Readonly<Config>, dir: string): string[] {
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
  const fromNpm = installedPlatformBinary(dir);
  return [fromNpm ?? "pi-sidecar"];
}

/** The runtime's own require: no transpiler walks the bundle. */
function nativeRequire(path: string): unknown {
  return createRequire(path)(path);
}

export function runningOnBun(): boolean {
  return typeof (globalThis as { Bun?: unknown }).Bun !== "undefined";
}

/** `dir`: the extension's folder (its bundles, install.json). */
export async function connect(config: Readonly<Config>, log: (line: string) => void, dir: string): Promise<Connection> {
  const wantInProcess = config.pi.engine === "in-process" || (config.pi.engine === "auto" && runningOnBun());
  if (wantInProcess) {
    if (!runningOnBun()) log("pi.engine is in-process but pi is not running on Bun; using the stdio engine");
    else {
      const bundle = join(dir, "engine.cjs");
      if (!existsSync(bundle)) throw new Error(`${bundle} is missing: reinstall the extension (pi-sidecar install pi)`);
      const mod = nativeRequire(bundle) as typeof import("./in-process-engine.ts");
      // pi's event loop must not stall on another process's write lock: short SQLite waits, async retries.
      const engine = mod.createEngine({ config, calls: mod.TOOL_CALLS, busyTimeoutMs: 250, assets: mod.assetsIn(dir) });
      return { engine, transport: "in-process" };
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
