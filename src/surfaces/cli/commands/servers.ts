import { CLI_MODEL, CLI_USER } from "../../../gateway/phrasing.ts";
import { type Command, UsageError } from "../command.ts";

export const serversCommand: Command = {
  name: "servers",
  summary: "the MCP servers in mcp.json: list, approve a project's file, enable, disable, profiles, backup",
  usage:
    "pi-sidecar servers [list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all | approve | backup | restore [BACKUP] | profile list|use NAME|save NAME]",
  options: {},
  async run(ctx) {
    const { openGateway } = await import("../../../gateway/open-gateway.ts");
    const { runServersCommand } = await import("../../../gateway/servers-command.ts");
    const opened = openGateway({ config: ctx.loaded.config, cwd: ctx.cwd, env: ctx.env, audience: CLI_MODEL });
    if (!opened) {
      ctx.err(
        "pi-sidecar: MCP servers are switched off (mcp.enabled is false or PI_SIDECAR_MCP=0); set mcp.enabled to true to use them.\n",
      );
      return 1;
    }
    try {
      const r = await runServersCommand(opened, ctx.positionals.join(" "), CLI_USER);
      if (r.ok) {
        ctx.out(`${r.text}\n`);
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
