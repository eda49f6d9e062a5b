/**
 * What the MCP gateway costs per turn, read from the files alone (mcp.json, the state file, the
 * on-disk catalog): no server is started. For each server, the tokens its tool definitions take
 * in each mode (full schemas when eager, one-line stubs, nothing of its own in catalog mode, where
 * three fixed tools stand for every catalog server), and what a session starting now is sent.
 * Counted as pi sends definitions ({name, description, parameters} as JSON), with o200k.
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import type { Config } from "../config.ts";
import { globMatch } from "../glob.ts";
import { agentDir } from "../paths.ts";
import { countTokens } from "../tokens/count.ts";
import { createCatalogCache } from "./catalog-cache.ts";
import { catalogTools, type ExposedTool, fullTool, serversLine, stubTool } from "./exposed-tools.ts";
import { createGateway } from "./gateway.ts";
import { loadServerConfigs } from "./server-config.ts";
import type { ServerMode, ServerSpec } from "./server-spec.ts";
import { createMcpState } from "./state.ts";

export type ServerDefinitions = {
  name: string;
  scope: "global" | "project";
  file: string;
  mode: ServerMode;
  enabled: boolean;
  /** Tools after allow/deny, as last listed; null when the server was never listed. */
  tools: number | null;
  listedAt: number | null;
  /** Tokens of this server's definitions per turn if it were eager, or stubs; null when never listed. */
  eagerTokens: number | null;
  stubTokens: number | null;
};

export type GatewayDefinitions = {
  enabled: boolean;
  defaultMode: ServerMode;
  force: ServerMode | null;
  servers: ServerDefinitions[];
  /** The three catalog tools (with the line naming every catalog server), paid once per turn when a server is in catalog mode. */
  catalogTokens: number;
  /** What a session starting now is sent per turn (before any stubs server is expanded). */
  perTurn: { tools: number; tokens: number };
  untrusted: { path: string; names: string[] }[];
  problems: string[];
  tokenizer: string;
};

/** As pi sends tool definitions to the model. */
export function definitionTokens(tools: ExposedTool[]): number {
  if (tools.length === 0) return 0;
  return countTokens(JSON.stringify(tools.map((t) => ({ name: t.name, description: t.description, parameters: t.inputSchema }))));
}

const allowed = (s: ServerSpec, tool: string): boolean =>
  (s.allow === null || s.allow.some((p) => globMatch(p, tool))) && !s.deny.some((p) => globMatch(p, tool));

export function gatewayDefinitions(o: {
  config: Readonly<Config>;
  cwd: string;
  env?: Record<string, string | undefined>;
}): GatewayDefinitions {
  const { mcp } = o.config;
  const force = mcp.force === "none" ? null : mcp.force;
  const empty: GatewayDefinitions = {
    enabled: mcp.enabled,
    defaultMode: mcp.mode,
    force,
    servers: [],
    catalogTokens: 0,
    perTurn: { tools: 0, tokens: 0 },
    untrusted: [],
    problems: [],
    tokenizer: "o200k_base",
  };
  if (!mcp.enabled) return empty;
  const dir = agentDir(o.env ?? process.env);
  const state = createMcpState(dir);
  const load = loadServerConfigs({ agentDir: dir, cwd: o.cwd, env: o.env, approved: state.isApproved });
  const cache = createCatalogCache(dir);
  const gateway = createGateway({ load, settings: { mode: mcp.mode, force, requestTimeoutMs: mcp.requestTimeoutMs }, cache, state });
  const status = new Map(gateway.status().map((s) => [s.name, s]));
  const servers = load.servers.map((spec): ServerDefinitions => {
    const entry = cache.get(spec);
    const tools: Tool[] | null = entry ? entry.tools.filter((t) => allowed(spec, t.name)) : null;
    const s = status.get(spec.name);
    return {
      name: spec.name,
      scope: spec.scope,
      file: spec.file,
      mode: s?.mode ?? force ?? spec.mode ?? mcp.mode,
      enabled: s?.enabled ?? spec.enabled,
      tools: tools?.length ?? null,
      listedAt: entry?.listedAt ?? null,
      eagerTokens: tools ? definitionTokens(tools.map((t) => fullTool(spec.name, t))) : null,
      stubTokens: tools ? definitionTokens(tools.map((t) => stubTool(spec.name, t))) : null,
    };
  });
  const inCatalog = servers.filter((s) => s.enabled && s.mode === "catalog");
  const exposed = gateway.exposed();
  void gateway.close();
  return {
    ...empty,
    servers,
    catalogTokens:
      inCatalog.length > 0 ? definitionTokens(catalogTools(serversLine(inCatalog.map((s) => ({ name: s.name, tools: s.tools }))))) : 0,
    perTurn: { tools: exposed.length, tokens: definitionTokens(exposed) },
    untrusted: load.untrusted.map((f) => ({ path: f.path, names: f.names })),
    problems: load.problems,
  };
}
