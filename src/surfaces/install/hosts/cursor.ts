/**
 * Cursor: `mcpServers` in `~/.cursor/mcp.json` (user) or `.cursor/mcp.json` (project), and an
 * always-applied rule `.cursor/rules/pi-sidecar.mdc` (project; user rules live in Cursor's
 * settings, so for the user scope the text is printed to paste there). Cursor's hooks can allow,
 * deny or message a shell command but neither rewrite it nor replace its output, so there is no
 * hook: the rule tells the model to run noisy commands with context_run.
 */
import { join } from "node:path";
import { changeFile } from "../files.ts";
import { INSTRUCTIONS } from "../instructions.ts";
import { entryEdit } from "../json-change.ts";
import type { HostSetup, SetupContext } from "./types.ts";
import { SERVER_NAME } from "./types.ts";

const RULE_MARK = "<!-- written by pi-sidecar install cursor; pi-sidecar uninstall cursor removes this file -->";

function files(ctx: SetupContext) {
  return ctx.scope === "user"
    ? { mcp: join(ctx.home, ".cursor", "mcp.json"), rule: null }
    : { mcp: join(ctx.project, ".cursor", "mcp.json"), rule: join(ctx.project, ".cursor", "rules", "pi-sidecar.mdc") };
}

function mcpChange(path: string, entry: unknown) {
  return changeFile(path, entryEdit(path, ["mcpServers", SERVER_NAME], entry));
}

export const cursor: HostSetup = {
  name: "cursor",
  label: "Cursor",
  install(ctx) {
    const f = files(ctx);
    const [command, ...rest] = ctx.bin;
    const changes = [mcpChange(f.mcp, { command, args: [...rest, "mcp"] })];
    if (f.rule)
      changes.push(
        changeFile(
          f.rule,
          () =>
            `---\ndescription: pi-sidecar keeps large command output out of the context\nalwaysApply: true\n---\n${RULE_MARK}\n${INSTRUCTIONS}\n`,
        ),
      );
    return {
      changes,
      notes: [
        "Reload Cursor; Settings > MCP lists pi-sidecar. Cursor's hooks cannot rewrite a command or replace its output, so nothing is automatic: the model uses context_run when told to.",
        ...(f.rule ? [] : [`For every project, paste this into Cursor Settings > Rules > User Rules:\n${INSTRUCTIONS}`]),
      ],
    };
  },
  uninstall(ctx) {
    const f = files(ctx);
    const changes = [mcpChange(f.mcp, undefined)];
    if (f.rule) changes.push(changeFile(f.rule, (text) => (text?.includes(RULE_MARK) ? null : text)));
    return { changes, notes: [] };
  },
};
