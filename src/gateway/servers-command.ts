/**
 * `/sidecar mcp` in pi and `pi-sidecar servers` on the command line: one parser, typed outcomes. Each
 * surface passes its audience (how its user runs these commands) and turns the outcome into its
 * own answer: the CLI an exit code (a usage error is 2), pi a notification.
 *   list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all
 *   approve | backup | restore [NAME] | profile list | profile use NAME | profile save NAME
 */
import { type Failure, fail, type Result } from "../errors.ts";
import type { OpenedGateway } from "./open-gateway.ts";
import { type Audience, type GatewayFailure, phrase } from "./phrasing.ts";
import { globalMcpPath, projectMcpPaths } from "./server-config.ts";
import type { ServerStatus } from "./server-pool.ts";

export type ServersOutcome = Result<{ text: string }>;

const SUBCOMMANDS =
  "list | connect NAME | disconnect NAME | enable NAME.. | disable NAME.. | expand NAME|all | approve | backup | restore [BACKUP] | profile list|use NAME|save NAME";

export function serversUsage(a: Audience): string {
  return `Usage: ${a.command(`[${SUBCOMMANDS}]`)}`;
}

function line(s: ServerStatus): string {
  const tools = s.tools === null ? "not listed yet" : `${s.tools} tools`;
  const flags = [s.enabled ? null : "disabled", s.promoted ? "full schemas" : null, s.pid ? `pid ${s.pid}` : null]
    .filter(Boolean)
    .join(", ");
  const error = s.lastError && s.status !== "ready" ? `\n    last error: ${s.lastError}` : "";
  return `  ${s.name.padEnd(20)} ${s.mode.padEnd(8)} ${s.status.padEnd(10)} ${tools}${flags ? ` (${flags})` : ""}  [${s.scope}]${error}`;
}

export function formatList(g: OpenedGateway, a: Audience): string {
  const servers = g.gateway.status();
  const out = [
    servers.length > 0
      ? `MCP servers (name, mode, state, tools):\n${servers.map(line).join("\n")}`
      : `No MCP servers. Add them to ${globalMcpPath(g.agentDir)} as {"mcpServers": {"name": {"command": "...", "args": []}}}.`,
  ];
  for (const f of g.gateway.untrusted) {
    out.push(
      `Not started: ${f.path} (${f.names.join(", ") || "no servers"}) is a project file you have not approved. Review it, then run ${a.command("approve")}.`,
    );
  }
  if (g.gateway.problems.length > 0) out.push(`Config problems:\n${g.gateway.problems.map((p) => `  - ${p}`).join("\n")}`);
  return out.join("\n");
}

const ok = (text: string): ServersOutcome => ({ ok: true, text });
/** A command called wrongly; each surface adds its own usage line. */
const usage = (message: string, _a: Audience): Failure => fail("USAGE", message);

export async function runServersCommand(g: OpenedGateway, input: string, a: Audience): Promise<ServersOutcome> {
  const [sub = "list", ...rest] = input.trim().split(/\s+/).filter(Boolean);
  const gw = g.gateway;
  const names = () =>
    gw
      .status()
      .map((s) => s.name)
      .join(", ") || "none";
  const needName = (what: string) => usage(`Name a server: ${a.command(`${what} NAME`)} (servers: ${names()}).`, a);
  const failed = (f: GatewayFailure): Failure => fail(f.code, phrase(f, a));
  switch (sub) {
    case "list":
    case "status":
      return ok(formatList(g, a));
    case "connect": {
      if (!rest[0]) return needName("connect");
      const r = await gw.connect(rest[0]);
      return r.ok ? ok(`${r.server}: connected, ${r.tools} tools.`) : failed(r);
    }
    case "disconnect": {
      if (!rest[0]) return needName("disconnect");
      const r = await gw.disconnect(rest[0]);
      return r.ok ? ok(`${r.server}: disconnected (it starts again on the next call).`) : failed(r);
    }
    case "enable":
    case "disable": {
      if (rest.length === 0) return needName(sub);
      const r = await gw.setEnabled(rest, sub === "enable");
      return r.ok ? ok(`${r.servers.join(", ")}: ${sub}d.`) : failed(r);
    }
    case "expand": {
      if (!rest[0]) return needName("expand");
      const r = await gw.expand(rest[0]);
      if (!r.ok) return failed(r);
      const lines = r.servers.map((s) => `${s.name}: ${s.tools.length} tools with full schemas: ${s.tools.join(", ")}`);
      if (r.problems.length > 0 && lines.length === 0) return failed(r.problems[0]!);
      return ok([...lines, ...r.problems.map((p) => phrase(p, a))].join("\n"));
    }
    case "approve":
      return approve(g, a);
    case "backup":
      return ok(`Backed up the MCP state and config files to ${g.state.backup([globalMcpPath(g.agentDir), ...projectMcpPaths(g.cwd)])}.`);
    case "restore": {
      const r = g.state.restore(rest[0]);
      if (!r)
        return fail(
          "NO_SUCH_BACKUP",
          `No backup${rest[0] ? ` named ${rest[0]}` : ""}. Backups: ${g.state.backups().join(", ") || `none (run ${a.command("backup")})`}.`,
        );
      const files = r.files.length ? `: ${r.files.join(", ")} (the replaced files are kept as *.before-restore)` : "";
      return ok(`Restored ${r.dir}${files}. It applies from the next session${a.reload ? ` (${a.reload})` : ""}.`);
    }
    case "profile":
      return profile(g, rest, a);
    default:
      return usage(`Unknown command "${sub}".`, a);
  }
}

function approve(g: OpenedGateway, a: Audience): ServersOutcome {
  const files = g.gateway.untrusted;
  if (files.length === 0) return ok("No project MCP file waits for approval.");
  for (const f of files) g.state.approve(f.path, f.hash);
  const when = a.reload ? ` (${a.reload})` : "";
  return ok(
    `Approved ${files.map((f) => f.path).join(", ")} as they are now (a later change needs approval again). Their servers start in the next session${when}.`,
  );
}

async function profile(g: OpenedGateway, [action, name]: string[], a: Audience): Promise<ServersOutcome> {
  const gw = g.gateway;
  const profiles = g.state.read().profiles;
  if (!action || action === "list") {
    const names = Object.keys(profiles);
    if (names.length === 0) return ok(`No profiles. Save the enabled servers as one with ${a.command("profile save NAME")}.`);
    const current = g.state.read().profile;
    return ok(names.map((n) => `${n === current ? "* " : "  "}${n}: ${profiles[n]!.join(", ") || "(no servers)"}`).join("\n"));
  }
  if (action !== "save" && action !== "use") return usage(`Unknown profile action "${action}".`, a);
  if (!name) return usage(`Name the profile: ${a.command(`profile ${action} NAME`)}.`, a);
  if (action === "save") {
    const on = gw
      .status()
      .filter((s) => s.enabled)
      .map((s) => s.name);
    g.state.saveProfile(name, on);
    return ok(`Profile ${name}: ${on.join(", ") || "(no servers)"}.`);
  }
  const all = gw.status().map((s) => s.name);
  const members = g.state.useProfile(name, all);
  if (!members) return fail("NO_SUCH_PROFILE", `No profile ${name}. Profiles: ${Object.keys(profiles).join(", ") || "none"}.`);
  const on = all.filter((n) => members.includes(n));
  const off = all.filter((n) => !members.includes(n));
  if (on.length) await gw.setEnabled(on, true);
  if (off.length) await gw.setEnabled(off, false);
  return ok(`Profile ${name}: enabled ${on.join(", ") || "none"}; disabled ${off.join(", ") || "none"}.`);
}
