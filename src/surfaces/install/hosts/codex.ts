/**
 * Codex CLI: `[mcp_servers.pi-sidecar]` in `~/.codex/config.toml` (CODEX_HOME moves it) or a
 * trusted project's `.codex/config.toml`; the PreToolUse hook on Bash in the `hooks.json` beside
 * it (Codex loads hooks.json and inline [hooks] alike; a separate file keeps the TOML edit to one
 * table); and the instructions in AGENTS.md.
 */
import { dirname, join } from "node:path";
import { defaultDatabasePath } from "../../../paths.ts";
import { changeFile } from "../files.ts";
import { INSTRUCTIONS } from "../instructions.ts";
import { hookListEdit } from "../json-change.ts";
import { withBlock, withoutBlock } from "../markdown-block.ts";
import { setTomlTable, tomlString } from "../toml-edit.ts";
import { commandLine, type HostSetup, SERVER_NAME, type SetupContext } from "./types.ts";

function files(ctx: SetupContext) {
  const dir = ctx.scope === "user" ? ctx.env.CODEX_HOME || join(ctx.home, ".codex") : join(ctx.project, ".codex");
  return {
    config: join(dir, "config.toml"),
    hooks: join(dir, "hooks.json"),
    agents: ctx.scope === "user" ? join(dir, "AGENTS.md") : join(ctx.project, "AGENTS.md"),
  };
}

export const codex: HostSetup = {
  name: "codex",
  label: "Codex CLI",
  install(ctx) {
    const f = files(ctx);
    const [command, ...rest] = ctx.bin;
    // Codex's default tool timeout (60 s) is shorter than a build context_run may wait for.
    const body = [
      `command = ${tomlString(command!)}`,
      `args = [${[...rest, "mcp"].map(tomlString).join(", ")}]`,
      "tool_timeout_sec = 3600",
    ];
    const changes = [
      changeFile(f.config, (text) => setTomlTable(text, f.config, ["mcp_servers", SERVER_NAME], body.join("\n"))),
      changeFile(f.agents, (text) => withBlock(text, INSTRUCTIONS)),
    ];
    if (ctx.hook)
      changes.push(
        changeFile(
          f.hooks,
          hookListEdit(f.hooks, ["hooks", "PreToolUse"], "codex", {
            matcher: "^Bash$",
            hooks: [{ type: "command", command: commandLine(ctx.bin, "hook", "codex"), timeout: 30 }],
          }),
        ),
      );
    const store = dirname(ctx.env.PI_SIDECAR_DB || defaultDatabasePath(ctx.env));
    return {
      changes,
      notes: [
        "Restart Codex; `codex mcp list` shows pi-sidecar.",
        ...(ctx.hook
          ? [
              "Codex asks you to review a new hook before it runs it (/hooks).",
              `In Codex's workspace-write sandbox a shell command cannot write the store (${store}): its output is then shown as is. To let the hook store it, add to config.toml: [sandbox_workspace_write] writable_roots = [${tomlString(store)}]`,
            ]
          : []),
        ...(ctx.scope === "project" ? ["Codex reads a project's .codex/ files only once you trust the project."] : []),
      ],
    };
  },
  uninstall(ctx) {
    const f = files(ctx);
    return {
      changes: [
        changeFile(f.config, (text) => (text === null ? null : setTomlTable(text, f.config, ["mcp_servers", SERVER_NAME], null))),
        changeFile(f.agents, withoutBlock),
        changeFile(f.hooks, hookListEdit(f.hooks, ["hooks", "PreToolUse"], "codex", null)),
      ],
      notes: [],
    };
  },
};
