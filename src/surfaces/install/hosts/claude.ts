/**
 * Claude Code: the MCP server in `~/.claude.json` (user) or `.mcp.json` (project), both under
 * `mcpServers`; the PreToolUse hook on `Bash` in `~/.claude/settings.json` or
 * `.claude/settings.json`. CLAUDE_CONFIG_DIR moves the user files, as it does for Claude Code.
 */
import { join } from "node:path";
import { changeFile } from "../files.ts";
import { entryEdit, hookListEdit } from "../json-change.ts";
import { commandLine, type HostSetup, SERVER_NAME, type SetupContext } from "./types.ts";

function files(ctx: SetupContext) {
  const dir = ctx.env.CLAUDE_CONFIG_DIR || join(ctx.home, ".claude");
  const userJson = ctx.env.CLAUDE_CONFIG_DIR ? join(dir, ".claude.json") : join(ctx.home, ".claude.json");
  return ctx.scope === "user"
    ? { mcp: userJson, settings: join(dir, "settings.json") }
    : { mcp: join(ctx.project, ".mcp.json"), settings: join(ctx.project, ".claude", "settings.json") };
}

const MCP = ["mcpServers", SERVER_NAME];
const PRE = ["hooks", "PreToolUse"];

export const claude: HostSetup = {
  name: "claude",
  label: "Claude Code",
  install(ctx) {
    const f = files(ctx);
    const [command, ...rest] = ctx.bin;
    const changes = [changeFile(f.mcp, entryEdit(f.mcp, MCP, { type: "stdio", command, args: [...rest, "mcp"], env: {} }))];
    if (ctx.hook) {
      const group = { matcher: "Bash", hooks: [{ type: "command", command: commandLine(ctx.bin, "hook", "claude"), timeout: 30 }] };
      changes.push(changeFile(f.settings, hookListEdit(f.settings, PRE, "claude", group)));
    }
    const notes = [
      "Restart Claude Code; `claude mcp list` shows pi-sidecar, `/hooks` shows the Bash hook.",
      ...(ctx.hook
        ? [
            "The hook rewrites only Bash commands Claude Code would run without asking (your allow rules, read-only commands); any other runs as before, and context_run is there for it.",
          ]
        : []),
      ...(ctx.scope === "project" ? ["Claude Code asks once before it starts the servers in .mcp.json."] : []),
    ];
    return { changes, notes };
  },
  uninstall(ctx) {
    const f = files(ctx);
    return {
      changes: [changeFile(f.mcp, entryEdit(f.mcp, MCP, undefined)), changeFile(f.settings, hookListEdit(f.settings, PRE, "claude", null))],
      notes: [],
    };
  },
};
