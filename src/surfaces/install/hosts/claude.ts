/**
 * Claude Code: the MCP server in `~/.claude.json` (user) or `.mcp.json` (project), both under
 * `mcpServers`; the PreToolUse hook on `Bash` in `~/.claude/settings.json` or
 * `.claude/settings.json`. CLAUDE_CONFIG_DIR moves the user files, as it does for Claude Code.
 */
import { join } from "node:path";
import { type Change, changeFile } from "../files.ts";
import { withOurHook, withoutOurHook } from "../hook-entries.ts";
import { getAt, parseObject, setAt } from "../json-edit.ts";
import { commandLine, type HostSetup, SERVER_NAME, type SetupContext } from "./types.ts";

function files(ctx: SetupContext) {
  const dir = ctx.env.CLAUDE_CONFIG_DIR || join(ctx.home, ".claude");
  const userJson = ctx.env.CLAUDE_CONFIG_DIR ? join(dir, ".claude.json") : join(ctx.home, ".claude.json");
  return ctx.scope === "user"
    ? { mcp: userJson, settings: join(dir, "settings.json") }
    : { mcp: join(ctx.project, ".mcp.json"), settings: join(ctx.project, ".claude", "settings.json") };
}

function mcpChange(path: string, entry: unknown): Change {
  return changeFile(path, (text) => {
    const value = parseObject(text, path);
    if (entry === undefined && getAt(value, ["mcpServers", SERVER_NAME]) === undefined) return text;
    return setAt(text, ["mcpServers", SERVER_NAME], entry);
  });
}

function hookChange(path: string, group: Record<string, unknown> | null): Change {
  return changeFile(path, (text) => {
    const value = parseObject(text, path);
    const current = getAt(value, ["hooks", "PreToolUse"]);
    if (group === null && current === undefined) return text;
    const next = group ? withOurHook(current, "claude", group) : withoutOurHook(current, "claude");
    if (JSON.stringify(next) === JSON.stringify(current)) return text;
    return setAt(text, ["hooks", "PreToolUse"], next);
  });
}

export const claude: HostSetup = {
  name: "claude",
  label: "Claude Code",
  install(ctx) {
    const f = files(ctx);
    const [command, ...rest] = ctx.bin;
    const changes = [mcpChange(f.mcp, { type: "stdio", command, args: [...rest, "mcp"], env: {} })];
    if (ctx.hook)
      changes.push(
        hookChange(f.settings, {
          matcher: "Bash",
          hooks: [{ type: "command", command: commandLine(ctx.bin, "hook", "claude"), timeout: 30 }],
        }),
      );
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
    return { changes: [mcpChange(f.mcp, undefined), hookChange(f.settings, null)], notes: [] };
  },
};
