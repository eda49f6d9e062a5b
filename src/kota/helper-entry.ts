/**
 * The entry of code intelligence's helper processes (see helper-process.ts): the parser that may
 * crash, and KotaDB's watchdog and guard. The compiled binary reaches it through src/main.ts;
 * from a checkout it is run directly (`bun src/kota/helper-entry.ts` with PI_SIDECAR_HELPER set).
 */
import { HELPER_ENV, HELPER_ROLES, type HelperRole } from "./helper-process.ts";
import { PARSER_JIT_SCALE, scaleJit } from "./jit-policy.ts";

export function helperRole(env: Record<string, string | undefined> = process.env): HelperRole | null {
  const role = env[HELPER_ENV];
  return HELPER_ROLES.includes(role as HelperRole) ? (role as HelperRole) : null;
}

/** Runs the role until its input ends; resolves with the exit code. */
export async function runHelper(role: HelperRole): Promise<number> {
  switch (role) {
    case "kota-parser":
      scaleJit(PARSER_JIT_SCALE);
      return (await import("./builtin/parse/parse-child.ts")).runParseChild();
    case "kotadb-watchdog":
      return (await import("./kotadb/watchdog.ts")).runWatchdog();
    case "kotadb-guard":
      return (await import("./kotadb/watchdog.ts")).runGuard();
  }
}

if (import.meta.main) {
  const role = helperRole();
  if (!role) {
    process.stderr.write(`helper-entry: set ${HELPER_ENV} to one of ${HELPER_ROLES.join(", ")}\n`);
    process.exit(2);
  }
  void runHelper(role).then((code) => process.exit(code));
}
