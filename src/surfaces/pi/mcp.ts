/**
 * The MCP gateway inside pi: registers what the gateway exposes (the catalog tools, stubs or
 * full schemas), re-registers on promotion, routes calls with pi's abort signal and progress
 * updates, and adds `/sidecar mcp`. Oversized results are captured by the tool_result hook like
 * any other tool's. A project's mcp.json is offered for approval once when pi has a UI.
 *
 * pi 1.x connects the servers in mcp.json itself (`/mcp`, tool_search, codemode). There the
 * gateway is off unless the user turns it on (`mcp.inPi`), and the extension never registers
 * `/mcp` nor reads mcp.json: pi replaces its own MCP support with any extension that takes `/mcp`.
 */
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Config } from "../../config.ts";
import { formatList, openGateway, PI_MODEL, PI_USER, phrase, runServersCommand, serversUsage, toPiContent } from "../../gateway/index.ts";
import type { SidecarCommand } from "./sidecar-command.ts";

const USAGE = "/sidecar mcp [list|connect|disconnect|enable|disable|expand|approve|backup|restore|profile]: pi-sidecar's MCP gateway";

/** Whether the pi that loaded us has MCP support of its own (pi 1.x: `pi.registerMcpServer`). */
export function hostHasMcp(pi: ExtensionAPI): boolean {
  return typeof (pi as { registerMcpServer?: unknown }).registerMcpServer === "function";
}

/** Whether the gateway runs in this pi: `mcp.inPi` `auto` leaves the servers to pi where pi has MCP support. */
export function gatewayInPi(config: Readonly<Config>, hostMcp: boolean): boolean {
  if (!config.mcp.enabled || config.mcp.inPi === "off") return false;
  return config.mcp.inPi === "on" || !hostMcp;
}

const OFF_HERE = [
  "pi connects your MCP servers itself here (mcp.json, /mcp, tool_search, codemode); pi-sidecar's gateway is off in this pi.",
  'To use the gateway (catalog or stubs) instead, set "mcp": {"inPi": "on"} in ~/.pi/agent/pi-sidecar.json (or PI_SIDECAR_MCP_IN_PI=on)',
  'and turn pi\'s off with "extensions": ["-builtin:mcp"] in ~/.pi/agent/settings.json. Large results of pi\'s MCP tools are stored either way.',
].join("\n");

export async function registerMcp(
  pi: ExtensionAPI,
  sidecar: SidecarCommand,
  config: Readonly<Config>,
  say: (ctx: ExtensionContext, text: string) => void,
  log: (line: string) => void,
): Promise<void> {
  const hostMcp = hostHasMcp(pi);
  if (!gatewayInPi(config, hostMcp)) {
    const why =
      !config.mcp.enabled || config.mcp.inPi === "off" ? "pi-sidecar's MCP gateway is turned off (mcp.enabled / mcp.inPi)." : OFF_HERE;
    sidecar.add("mcp", { usage: USAGE, run: (_args, ctx) => say(ctx, why) });
    return;
  }
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

  const run = async (args: string, ctx: ExtensionContext) => {
    const r = await runServersCommand(opened, args, PI_USER);
    say(ctx, r.ok ? r.text : r.code === "USAGE" ? `${r.message}\n${serversUsage(PI_USER)}` : r.message);
  };
  sidecar.add("mcp", { usage: USAGE, run });
  // Where pi has no MCP support, `/mcp` is free: the short name stays for those who type it.
  if (!hostMcp)
    pi.registerCommand("mcp", {
      description: "pi-sidecar's MCP gateway (same as /sidecar mcp)",
      handler: (args, ctx) => run(args ?? "", ctx),
    });

  let asked = false;
  pi.on("session_start", async (_event, ctx) => {
    if (hostMcp && pi.getCommands().some((c) => c.name === "mcp")) {
      process.stderr.write(
        'pi-sidecar: pi\'s own MCP support and pi-sidecar\'s gateway (mcp.inPi "on") both start the servers in mcp.json; turn one off: "extensions": ["-builtin:mcp"] in ~/.pi/agent/settings.json, or mcp.inPi "auto"\n',
      );
    }
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
