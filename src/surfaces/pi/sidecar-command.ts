/**
 * `/sidecar SUB ...` in pi: one command for pi-sidecar's subcommands (`web`, `mcp`), so the
 * extension takes no command name pi or another extension may own (pi 1.x has its own `/mcp`).
 * Parts of the extension add their subcommand while it loads; `register` adds the command once.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import { say } from "./commands.ts";

export type Subcommand = {
  /** One line: `/sidecar web [open|stop]: what it does`. */
  usage: string;
  run(args: string, ctx: ExtensionContext): Promise<void> | void;
};

export type SidecarCommand = {
  add(name: string, sub: Subcommand): void;
  register(pi: ExtensionAPI): void;
};

export function sidecarCommand(): SidecarCommand {
  const subs = new Map<string, Subcommand>();
  const usage = () => [...subs.values()].map((s, i) => `${i === 0 ? "Usage: " : "       "}${s.usage}`).join("\n");
  return {
    add(name, sub) {
      subs.set(name, sub);
    },
    register(pi) {
      pi.registerCommand("sidecar", {
        description: `pi-sidecar: ${[...subs.keys()].map((n) => `/sidecar ${n}`).join(", ")}`,
        handler: async (args: string | undefined, ctx: ExtensionContext) => {
          const text = (args ?? "").trim();
          const [name = ""] = text.split(/\s+/, 1);
          const sub = subs.get(name);
          if (!sub) return say(ctx, name ? `No /sidecar ${name}.\n${usage()}` : usage());
          await sub.run(text.slice(name.length).trim(), ctx);
        },
      });
    },
  };
}
