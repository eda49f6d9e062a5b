/**
 * OpenCode: the `mcp` entry (`type: "local"`, a command array) in `opencode.json` (project root)
 * or `~/.config/opencode/opencode.json` (an existing `opencode.jsonc` is edited instead), and the
 * plugin in `.opencode/plugins/` or `~/.config/opencode/plugins/`, which OpenCode loads at start.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { changeFile } from "../files.ts";
import { entryEdit } from "../json-change.ts";
import { setAt } from "../json-edit.ts";
import { opencodePlugin, PLUGIN_MARK } from "../opencode-plugin.ts";
import { type HostSetup, SERVER_NAME, type SetupContext } from "./types.ts";

function files(ctx: SetupContext) {
  const dir = ctx.scope === "user" ? join(ctx.env.XDG_CONFIG_HOME || join(ctx.home, ".config"), "opencode") : ctx.project;
  const jsonc = join(dir, "opencode.jsonc");
  return {
    config: existsSync(jsonc) ? jsonc : join(dir, "opencode.json"),
    plugin: ctx.scope === "user" ? join(dir, "plugins", "pi-sidecar.js") : join(ctx.project, ".opencode", "plugins", "pi-sidecar.js"),
  };
}

function configChange(path: string, entry: unknown) {
  return changeFile(
    path,
    entryEdit(path, ["mcp", SERVER_NAME], entry, () => setAt(null, ["$schema"], "https://opencode.ai/config.json")),
  );
}

export const opencode: HostSetup = {
  name: "opencode",
  label: "OpenCode",
  install(ctx) {
    const f = files(ctx);
    const changes = [configChange(f.config, { type: "local", command: [...ctx.bin, "mcp"], enabled: true })];
    if (ctx.hook) changes.push(changeFile(f.plugin, () => opencodePlugin(ctx.bin)));
    return {
      changes,
      notes: [
        "Restart OpenCode; `opencode mcp list` shows pi-sidecar.",
        ...(ctx.hook
          ? ["The plugin replaces any tool's oversized result (bash, grep, webfetch, MCP tools) by a receipt; file reads stay whole."]
          : []),
      ],
    };
  },
  uninstall(ctx) {
    const f = files(ctx);
    return {
      changes: [configChange(f.config, undefined), changeFile(f.plugin, (text) => (text?.startsWith(PLUGIN_MARK) ? null : text))],
      notes: [],
    };
  },
};
