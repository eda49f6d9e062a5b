/**
 * The tool definitions the model is sent for MCP servers, per mode. Every word here is paid on
 * every turn, so descriptions are short, and the catalog set is built once per session from
 * the on-disk catalog: it never changes while the session runs (prompt caches stay valid).
 */
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { sha256 } from "../hash.ts";
import { plural } from "../units.ts";
import { firstSentence, inlineRefs, type JsonSchema, signature } from "./schema.ts";

export type ExposedKind = "search" | "describe" | "call" | "expand" | "stub" | "full";

export type ExposedTool = {
  name: string;
  description: string;
  inputSchema: JsonSchema;
  kind: ExposedKind;
  server?: string;
  tool?: string;
};

export const SEARCH_TOOL = "mcp_search";
export const DESCRIBE_TOOL = "mcp_describe";
export const CALL_TOOL = "mcp_call";
export const EXPAND_TOOL = "mcp__expand";

/** `server__tool`, made safe for every provider (letters, digits, _ and -, at most 64). */
export function exposedName(server: string, tool: string): string {
  const name = `${server}__${tool.replace(/[^A-Za-z0-9_-]+/g, "_")}`;
  if (name.length <= 64) return name;
  const hash = sha256(name).slice(0, 8);
  return `${name.slice(0, 55)}_${hash}`;
}

/** The one stable line naming the catalog servers and their tool counts. */
export function serversLine(servers: { name: string; tools: number | null }[]): string {
  if (servers.length === 0) return "No servers.";
  return `Servers: ${servers.map((s) => `${s.name} (${s.tools === null ? "not listed yet" : plural(s.tools, "tool")})`).join(", ")}.`;
}

export function catalogTools(line: string): ExposedTool[] {
  const toolParam = { type: "string", description: "server/tool as mcp_search shows it" };
  return [
    {
      name: SEARCH_TOOL,
      kind: "search",
      description: `Find tools on the user's MCP servers by keywords; returns call signatures. ${line}`,
      inputSchema: {
        type: "object",
        properties: {
          query: { type: "string", description: "What the tool should do, e.g. read file" },
          server: { type: "string", description: "Only this server" },
        },
        required: ["query"],
      },
    },
    {
      name: DESCRIBE_TOOL,
      kind: "describe",
      description: "Full description and input schema of one MCP tool.",
      inputSchema: { type: "object", properties: { tool: toolParam }, required: ["tool"] },
    },
    {
      name: CALL_TOOL,
      kind: "call",
      description: "Call an MCP tool. Arguments are checked against its full schema; a mismatch returns the schema.",
      inputSchema: {
        type: "object",
        properties: { tool: toolParam, arguments: { type: "object", description: "The tool's arguments" } },
        required: ["tool"],
      },
    },
  ];
}

export function expandTool(servers: string[]): ExposedTool {
  return {
    name: EXPAND_TOOL,
    kind: "expand",
    description: "server__tool tools here are stubs. Load full schemas of a server (a call loads them too).",
    inputSchema: { type: "object", properties: { server: { type: "string", enum: [...servers, "all"] } }, required: ["server"] },
  };
}

/**
 * A stub: the first sentence and the call's signature in the description, an open object as
 * the schema. A signature says in ~40 characters what JSON Schema says in ~150; the first call
 * is checked against the full schema anyway (a mismatch returns it), then the full schemas
 * replace the stubs.
 */
export function stubTool(server: string, tool: Tool): ExposedTool {
  const sentence = firstSentence(tool.description, 60);
  return {
    name: exposedName(server, tool.name),
    kind: "stub",
    server,
    tool: tool.name,
    description: `${sentence ? `${sentence} ` : ""}${signature("", tool.inputSchema as JsonSchema)}`,
    inputSchema: { type: "object" },
  };
}

export function fullTool(server: string, tool: Tool): ExposedTool {
  return {
    name: exposedName(server, tool.name),
    kind: "full",
    server,
    tool: tool.name,
    description: tool.description ?? "",
    inputSchema: inlineRefs(tool.inputSchema as JsonSchema),
  };
}
