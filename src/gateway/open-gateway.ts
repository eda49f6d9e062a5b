/**
 * Builds the gateway for a surface from the frozen config: the user's mcp.json files, the
 * approvals and switches in the state file, and the on-disk catalog. Null when MCP is off.
 */
import type { Config } from "../config.ts";
import { agentDir } from "../paths.ts";
import { createCatalogCache } from "./catalog-cache.ts";
import { createGateway, type Gateway } from "./gateway.ts";
import type { Audience } from "./phrasing.ts";
import { loadServerConfigs } from "./server-config.ts";
import { createMcpState, type McpState } from "./state.ts";

type Env = Record<string, string | undefined>;

export type OpenedGateway = { gateway: Gateway; state: McpState; agentDir: string; cwd: string };

export type OpenGatewayOptions = {
  config: Readonly<Config>;
  cwd: string;
  /** Who reads the gateway's tool results: the model in pi, or another agent's model behind `pi-sidecar mcp`. */
  audience: Audience;
  env?: Env;
  log?: (line: string) => void;
};

export function openGateway(o: OpenGatewayOptions): OpenedGateway | null {
  if (!o.config.mcp.enabled) return null;
  const env = o.env ?? process.env;
  const dir = agentDir(env);
  const state = createMcpState(dir);
  const load = loadServerConfigs({ agentDir: dir, cwd: o.cwd, env, approved: state.isApproved });
  const gateway = createGateway({
    load,
    settings: {
      mode: o.config.mcp.mode,
      force: o.config.mcp.force === "none" ? null : o.config.mcp.force,
      requestTimeoutMs: o.config.mcp.requestTimeoutMs,
    },
    cache: createCatalogCache(dir),
    state,
    audience: o.audience,
    log: o.log,
  });
  return { gateway, state, agentDir: dir, cwd: o.cwd };
}
