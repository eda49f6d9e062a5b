/** What the gateway knows of one configured MCP server, and of the mcp.json files that define them. */
export type ServerMode = "catalog" | "stubs" | "eager";
export const SERVER_MODES: readonly ServerMode[] = ["catalog", "stubs", "eager"];
export type Transport = "stdio" | "http" | "sse";

export type ServerSpec = {
  name: string;
  /** The mcp.json that defines it. */
  file: string;
  scope: "global" | "project";
  transport: Transport;
  /** A remote server given as plain `url` tries Streamable HTTP, then SSE. */
  fallbackToSse: boolean;
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd: string | undefined;
  url: string;
  headers: Record<string, string>;
  enabled: boolean;
  /** null: the configured default (mcp.mode). */
  mode: ServerMode | null;
  idleTimeoutMs: number;
  timeoutMs: number | null;
  allow: string[] | null;
  deny: string[];
  autostart: boolean;
  /** Hash of what decides the server's tools; a cached catalog with another one is stale. */
  fingerprint: string;
};

export type McpFile = { path: string; scope: "global" | "project"; hash: string; names: string[] };
export type ServerConfigLoad = { servers: ServerSpec[]; untrusted: McpFile[]; files: McpFile[]; problems: string[] };
