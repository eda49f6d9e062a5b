import { openGateway } from "../../../gateway/open-gateway.ts";
import { MCP_USAGE, runMcpCommand } from "../../../gateway/servers-command.ts";
import type { Command } from "../command.ts";

export const serversCommand: Command = {
  name: "servers",
  summary: "the MCP servers in mcp.json: list, approve a project's file, enable, disable, profiles, backup",
  usage: `pi-sidecar servers [list | connect NAME | enable NAME.. | disable NAME.. | approve | backup | restore [BACKUP] | profile list|use NAME|save NAME]`,
  options: {},
  async run(ctx) {
    const opened = openGateway({ config: ctx.loaded.config, cwd: ctx.cwd, env: ctx.env });
    if (!opened) {
      ctx.err("pi-sidecar: MCP servers are switched off (mcp.enabled is false or PI_SIDECAR_MCP=0).\n");
      return 1;
    }
    try {
      const text = await runMcpCommand(opened, ctx.positionals.join(" "));
      ctx.out(`${text.replace(MCP_USAGE, "Run pi-sidecar servers --help.").replace(/\/mcp /g, "pi-sidecar servers ")}\n`);
      return /^(Unknown|No MCP server|Name a server)/.test(text) ? 1 : 0;
    } finally {
      await opened.gateway.close();
    }
  },
};
