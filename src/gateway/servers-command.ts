/**
 * `/mcp` in pi and `pi-sidecar servers` on the command line: one parser, plain-text answers.
 *   list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all
 *   approve | backup | restore [NAME] | profile list | profile use NAME | profile save NAME
 */

import type { ServerStatus } from "./gateway.ts";
import type { OpenedGateway } from "./open-gateway.ts";
import { globalMcpPath, projectMcpPaths } from "./server-config.ts";

export const MCP_USAGE =
  "Usage: /mcp [list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all | approve | backup | restore [BACKUP] | profile list|use NAME|save NAME]";

function line(s: ServerStatus): string {
  const tools = s.tools === null ? "not listed yet" : `${s.tools} tools`;
  const flags = [s.enabled ? null : "disabled", s.promoted ? "full schemas" : null, s.pid ? `pid ${s.pid}` : null]
    .filter(Boolean)
    .join(", ");
  const error = s.lastError && s.status !== "ready" ? `\n    last error: ${s.lastError}` : "";
  return `  ${s.name.padEnd(20)} ${s.mode.padEnd(8)} ${s.status.padEnd(10)} ${tools}${flags ? ` (${flags})` : ""}  [${s.scope}]${error}`;
}

export function formatList(g: OpenedGateway): string {
  const servers = g.gateway.status();
  const out = [
    servers.length > 0
      ? `MCP servers (name, mode, state, tools):\n${servers.map(line).join("\n")}`
      : `No MCP servers. Add them to ${globalMcpPath(g.agentDir)} as {"mcpServers": {"name": {"command": "...", "args": []}}}.`,
  ];
  for (const f of g.gateway.untrusted) {
    out.push(
      `Not started: ${f.path} (${f.names.join(", ") || "no servers"}) is a project file you have not approved. Review it, then run /mcp approve.`,
    );
  }
  if (g.gateway.problems.length > 0) out.push(`Config problems:\n${g.gateway.problems.map((p) => `  - ${p}`).join("\n")}`);
  return out.join("\n");
}

export async function runMcpCommand(g: OpenedGateway, input: string): Promise<string> {
  const [sub = "list", ...rest] = input.trim().split(/\s+/).filter(Boolean);
  const gw = g.gateway;
  const needName = (what: string) =>
    `Name a server: /mcp ${what} NAME (servers: ${
      gw
        .status()
        .map((s) => s.name)
        .join(", ") || "none"
    }).`;
  switch (sub) {
    case "list":
    case "status":
      return formatList(g);
    case "connect":
      return rest[0] ? gw.connect(rest[0]).catch((e: Error) => e.message) : needName("connect");
    case "disconnect":
      return rest[0] ? gw.disconnect(rest[0]) : needName("disconnect");
    case "enable":
    case "disable":
      return rest.length > 0 ? gw.setEnabled(rest, sub === "enable") : needName(sub);
    case "expand":
      return rest[0] ? gw.promote(rest[0]) : needName("expand");
    case "approve": {
      if (gw.untrusted.length === 0) return "No project MCP file waits for approval.";
      for (const f of gw.untrusted) g.state.approve(f.path, f.hash);
      return `Approved ${gw.untrusted.map((f) => f.path).join(", ")} as they are now (a later change needs approval again). Their servers start in the next session (/reload).`;
    }
    case "backup":
      return `Backed up the MCP state and config files to ${g.state.backup([globalMcpPath(g.agentDir), ...projectMcpPaths(g.cwd)])}.`;
    case "restore": {
      const r = g.state.restore(rest[0]);
      if (!r)
        return `No backup${rest[0] ? ` named ${rest[0]}` : ""}. Backups: ${g.state.backups().join(", ") || "none (run /mcp backup)"}.`;
      return `Restored ${r.dir}${r.files.length ? `: ${r.files.join(", ")} (the replaced files are kept as *.before-restore)` : ""}. It applies from the next session (/reload).`;
    }
    case "profile": {
      const [action, name] = rest;
      const profiles = g.state.read().profiles;
      if (!action || action === "list") {
        const names = Object.keys(profiles);
        if (names.length === 0) return "No profiles. Save the enabled servers as one with /mcp profile save NAME.";
        const current = g.state.read().profile;
        return names.map((n) => `${n === current ? "* " : "  "}${n}: ${profiles[n]!.join(", ") || "(no servers)"}`).join("\n");
      }
      if (!name) return `Name the profile: /mcp profile ${action} NAME.`;
      if (action === "save") {
        const on = gw
          .status()
          .filter((s) => s.enabled)
          .map((s) => s.name);
        g.state.saveProfile(name, on);
        return `Profile ${name}: ${on.join(", ") || "(no servers)"}.`;
      }
      if (action === "use") {
        const all = gw.status().map((s) => s.name);
        const members = g.state.useProfile(name, all);
        if (!members) return `No profile ${name}. Profiles: ${Object.keys(profiles).join(", ") || "none"}.`;
        const on = all.filter((n) => members.includes(n));
        const off = all.filter((n) => !members.includes(n));
        if (on.length) await gw.setEnabled(on, true);
        if (off.length) await gw.setEnabled(off, false);
        return `Profile ${name}: enabled ${on.join(", ") || "none"}; disabled ${off.join(", ") || "none"}.`;
      }
      return `Unknown profile action "${action}". ${MCP_USAGE}`;
    }
    default:
      return `Unknown /mcp command "${sub}". ${MCP_USAGE}`;
  }
}
