/** What every host's setup gets, and what it plans: file changes and notes for the person. */
import type { Change } from "../files.ts";

export type SetupContext = {
  scope: "user" | "project";
  /** The project folder (the current directory). */
  project: string;
  home: string;
  env: Record<string, string | undefined>;
  /** How to run this pi-sidecar: the binary, or bun + src/main.ts in a checkout. */
  bin: string[];
  /** Also the hook or plugin (default); false: the MCP entry and instructions only. */
  hook: boolean;
};

export type HostPlan = { changes: Change[]; notes: string[] };

export type HostSetup = {
  name: string;
  label: string;
  install(ctx: SetupContext): HostPlan;
  uninstall(ctx: SetupContext): HostPlan;
};

/** A command line for a config that a shell runs (hooks). */
export function commandLine(bin: string[], ...args: string[]): string {
  return [...bin, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)).join(" ");
}

export const SERVER_NAME = "pi-sidecar";
