/** The agent hosts pi-sidecar sets itself up in, by name. */
import { claude } from "./hosts/claude.ts";
import { codex } from "./hosts/codex.ts";
import { cursor } from "./hosts/cursor.ts";
import { gemini } from "./hosts/gemini.ts";
import { opencode } from "./hosts/opencode.ts";
import type { HostSetup } from "./hosts/types.ts";

export type { HostPlan, HostSetup, SetupContext } from "./hosts/types.ts";

export const HOSTS: readonly HostSetup[] = [claude, codex, cursor, opencode, gemini];

export function hostNamed(name: string | undefined): HostSetup | undefined {
  return HOSTS.find((h) => h.name === name);
}
