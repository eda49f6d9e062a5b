import { CLI_MODEL, CLI_USER, openGateway, runServersCommand } from "../../../gateway/index.ts";
import { type Command, printJson, UsageError } from "../command.ts";

export const serversCommand: Command = {
  name: "servers",
  summary: "the MCP servers in mcp.json: list, approve a project's file, enable, disable, profiles, backup",
  usage:
    "pi-sidecar servers [list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all | approve | backup | restore [BACKUP] | profile list|use NAME|save NAME]",
  options: {},
  async run(ctx) {
    const opened = openGateway({ config: ctx.loaded.config, cwd: ctx.cwd, env: ctx.env, audience: CLI_MODEL });
    if (!opened) {
      ctx.err(
        "pi-sidecar: MCP servers are switched off (mcp.enabled is false or PI_SIDECAR_MCP=0); set mcp.enabled to true to use them.\n",
      );
      return 1;
    }
    try {
      const input = ctx.positionals.join(" ");
      const sub = ctx.positionals[0] ?? "list";
      if (ctx.json && (sub === "list" || sub === "status") && ctx.positionals.length <= 1) {
        // The list as data: each server's state, and the project files not approved yet.
        const gw = opened.gateway;
        printJson(ctx, {
          servers: gw.status(),
          unapproved: gw.untrusted.map((f) => ({ path: f.path, servers: f.names })),
          problems: gw.problems,
        });
        return 0;
      }
      const r = await runServersCommand(opened, input, CLI_USER);
      if (r.ok) {
        if (ctx.json) printJson(ctx, { ok: true, command: input || "list", text: r.text });
        else ctx.out(`${r.text}\n`);
        return 0;
      }
      if (r.code === "USAGE") throw new UsageError(r.message);
      ctx.err(`pi-sidecar: ${r.message}\n`);
      return 1;
    } finally {
      await opened.gateway.close();
    }
  },
};
