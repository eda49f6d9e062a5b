/**
 * How code intelligence starts a process of its own (the parser that may crash, KotaDB's watchdog):
 * the same program in a helper role, wherever we run.
 * - The compiled binary: itself, with PI_SIDECAR_HELPER naming the role (src/main.ts dispatches).
 * - The pi extension's in-process engine (engine.cjs, pi on Bun): the pi-sidecar that installed it
 *   (install.json beside the bundle), else the binary the bundle was built with (../pi-sidecar),
 *   else this platform's package that npm installed with the extension (`pi install npm:pi-sidecar`),
 *   else `pi-sidecar` on PATH. The parser never runs in pi's process: the binary carries its own.
 * - From a checkout (tests, `bun src/main.ts`): Bun with src/kota/helper-entry.ts.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installedPlatformBinary } from "../platforms.ts";

export const HELPER_ENV = "PI_SIDECAR_HELPER";
/**
 * A command (words separated by spaces) that every helper process is run through: for a binary run
 * by an emulator that the kernel does not know (qemu-user without binfmt_misc), which could not
 * start a copy of itself otherwise. Example: `qemu-aarch64-static -L /usr/aarch64-linux-gnu`.
 */
export const HELPER_WRAPPER_ENV = "PI_SIDECAR_HELPER_WRAPPER";
export type HelperRole = "kota-parser" | "kotadb-watchdog" | "kotadb-guard";
export const HELPER_ROLES: readonly HelperRole[] = ["kota-parser", "kotadb-watchdog", "kotadb-guard"];

export type HelperCommand = { command: string; args: string[]; env: Record<string, string> };

/** The compiled binary's embedded root (scripts/compile.ts defines it; absent from the sources and the extension's bundles). */
declare const PI_SIDECAR_EMBEDDED_ROOT: string | undefined;

/**
 * Where this module's code runs from: inside a compiled binary, or the sources. Bun's bundler fixes
 * `__dirname` (and import.meta.dir) to the source folder at build time: the compiled binary knows
 * its embedded root from its build instead (else it would start the build machine's sources, or a
 * pi-sidecar on PATH, as its parser), and the pi extension passes its own folder (KotaServiceDeps.helperDir).
 */
function here(): string {
  if (typeof PI_SIDECAR_EMBEDDED_ROOT === "string") return PI_SIDECAR_EMBEDDED_ROOT;
  return typeof __dirname === "string" ? __dirname : import.meta.dir;
}

export function isCompiledBinary(dir = here()): boolean {
  return dir.includes("$bunfs") || dir.includes("~BUN");
}

/** The command `pi-sidecar install pi` recorded beside the extension, when it still exists. */
function installedCommand(dir: string): string[] | null {
  try {
    const recorded = JSON.parse(readFileSync(join(dir, "install.json"), "utf8")).command;
    if (Array.isArray(recorded) && recorded.length > 0 && recorded.every((a) => typeof a === "string") && existsSync(recorded[0] as string))
      return recorded as string[];
  } catch {
    // not installed by pi-sidecar, or a broken record: the next choice
  }
  return null;
}

export function helperCommand(
  role: HelperRole,
  dir = here(),
  execPath = process.execPath,
  wrapper = process.env[HELPER_WRAPPER_ENV],
): HelperCommand {
  const [head, ...rest] = wrapper?.split(" ").filter(Boolean) ?? [];
  const plain = chooseCommand(role, dir, execPath);
  return head ? { command: head, args: [...rest, plain.command, ...plain.args], env: plain.env } : plain;
}

function chooseCommand(role: HelperRole, dir: string, execPath: string): HelperCommand {
  const env = { [HELPER_ENV]: role };
  if (isCompiledBinary(dir)) return { command: execPath, args: [], env };
  const source = join(dir, "helper-entry.ts");
  if (existsSync(source)) return { command: execPath, args: [source], env };
  const [command, ...args] = installedCommand(dir) ?? [
    [join(dir, "..", "pi-sidecar")].find(existsSync) ?? installedPlatformBinary(dir) ?? "pi-sidecar",
  ];
  return { command: command!, args, env };
}
