/**
 * The MCP gateway inside pi: registers what the gateway exposes (the catalog tools, stubs or
 * full schemas), re-registers on promotion, routes calls with pi's abort signal and progress
 * updates, and adds `/mcp`. Oversized results are captured by the tool_result hook like any
 * other tool's. A project's mcp.json is offered for approval once when pi has a UI.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import { openGateway } from "../../gateway/open-gateway.ts";
import { PI_MODEL, PI_USER, phrase } from "../../gateway/phrasing.ts";
import { toPiContent } from "../../gateway/result.ts";
import { formatList, runServersCommand, serversUsage } from "../../gateway/servers-command.ts";

export async function registerMcp(
  pi: ExtensionAPI,
  config: Readonly<Config>,
  say: (ctx: ExtensionContext, text: string) => void,
  log: (line: string) => void,
): Promise<void> {
  const opened = openGateway({ config, cwd: process.cwd(), log, audience: PI_MODEL });
  if (!opened) return;
  const { gateway } = opened;
  for (const problem of gateway.problems) process.stderr.write(`pi-sidecar: mcp.json: ${problem}\n`);
  for (const problem of await gateway.prepare()) process.stderr.write(`pi-sidecar: mcp: ${phrase(problem, PI_USER)}\n`);

  const registered = new Map<string, string>();
  const sync = () => {
    for (const tool of gateway.exposed()) {
      const key = JSON.stringify([tool.description, tool.inputSchema]);
      if (registered.get(tool.name) === key) continue;
      registered.set(tool.name, key);
      const label = tool.server ? `${tool.server}/${tool.tool}` : tool.name;
      pi.registerTool({
        name: tool.name,
        label,
        description: tool.description,
        parameters: tool.inputSchema as never,
        async execute(_id, params, signal, onUpdate) {
          const r = await gateway.call(tool.name, params, {
            signal,
            onProgress: (progress, total, message) =>
              onUpdate?.({
                content: [{ type: "text", text: `${label}: ${progress}${total ? `/${total}` : ""}${message ? ` ${message}` : ""}` }],
                details: { progress, total },
              }),
          });
          const content = toPiContent(r.result);
          if (r.result.isError) throw new Error(content.map((c) => (c.type === "text" ? c.text : `[${c.mimeType} image]`)).join("\n"));
          return { content, details: { mcp: { server: r.server, tool: r.tool, promoted: r.promoted ?? false } } };
        },
      });
    }
  };
  sync();
  gateway.onChange(sync);

  pi.registerCommand("mcp", {
    description: "MCP servers behind pi-sidecar: list, connect, disconnect, enable, disable, expand, approve, backup, restore, profile",
    handler: async (args, ctx) => {
      const r = await runServersCommand(opened, args ?? "", PI_USER);
      say(ctx, r.ok ? r.text : r.code === "USAGE" ? `${r.message}\n${serversUsage(PI_USER)}` : r.message);
    },
  });

  let asked = false;
  pi.on("session_start", async (_event, ctx) => {
    if (asked || gateway.untrusted.length === 0) return;
    asked = true;
    const files = gateway.untrusted.map((f) => `${f.path} (${f.names.join(", ")})`).join("; ");
    if (!ctx.hasUI) {
      log(`mcp: not started, not approved: ${files}`);
      return;
    }
    const ok = await ctx.ui.confirm(
      "Start this project's MCP servers?",
      `${files}\nThey run commands on this machine. Approve once; a change to the file asks again.`,
    );
    const approved = ok ? await runServersCommand(opened, "approve", PI_USER) : null;
    say(ctx, approved?.ok ? approved.text : `Not started. ${formatList(opened, PI_USER)}\n${serversUsage(PI_USER)}`);
  });
  pi.on("session_shutdown", async () => {
    await gateway.close();
  });
}
