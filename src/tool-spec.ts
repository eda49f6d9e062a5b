/**
 * A model-facing tool's parameters in a small neutral form: pi turns them into TypeBox, the MCP
 * server into JSON Schema, and each tool's arguments are checked against them once.
 */
export type ParamSpec = {
  type: "string" | "integer" | "boolean" | "string[]";
  description: string;
  required?: boolean;
  minimum?: number;
  maximum?: number;
  /** The only values a string may take. */
  values?: readonly string[];
};

export type ToolSpec = { name: string; label: string; description: string; params: Record<string, ParamSpec> };
