/**
 * Gemini CLI: `mcpServers` and the BeforeTool hook on `run_shell_command`, both in
 * `~/.gemini/settings.json` (user) or `.gemini/settings.json` (project). Its hooks are on by
 * default (hooksConfig.enabled); project hooks run once the folder is trusted.
 */
import { join } from "node:path";
import { changeFile } from "../files.ts";
import { entryEdit, hookListEdit } from "../json-change.ts";
import { commandLine, type HostSetup, SERVER_NAME, type SetupContext } from "./types.ts";

function settingsPath(ctx: SetupContext): string {
  return ctx.scope === "user" ? join(ctx.home, ".gemini", "settings.json") : join(ctx.project, ".gemini", "settings.json");
}

function edit(path: string, mcp: unknown, group: Record<string, unknown> | null) {
  return changeFile(path, (text) =>
    hookListEdit(path, ["hooks", "BeforeTool"], "gemini", group)(entryEdit(path, ["mcpServers", SERVER_NAME], mcp)(text)),
  );
}

export const gemini: HostSetup = {
  name: "gemini",
  label: "Gemini CLI",
  install(ctx) {
    const [command, ...rest] = ctx.bin;
    const group = ctx.hook
      ? {
          matcher: "run_shell_command",
          hooks: [{ name: "pi-sidecar", type: "command", command: commandLine(ctx.bin, "hook", "gemini"), timeout: 30000 }],
        }
      : null;
    return {
      changes: [edit(settingsPath(ctx), { command, args: [...rest, "mcp"], timeout: 3_600_000 }, group)],
      notes: [
        "Restart Gemini CLI; `/mcp` lists pi-sidecar's tools and `/hooks panel` the BeforeTool hook.",
        ...(ctx.scope === "project" ? ["Gemini CLI runs a project's hooks once you trust the folder."] : []),
      ],
    };
  },
  uninstall(ctx) {
    return { changes: [edit(settingsPath(ctx), undefined, null)], notes: [] };
  },
};
