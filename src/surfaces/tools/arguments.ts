/**
 * Tool arguments checked once against the tool's own parameter spec (the one its schema is
 * made from): types, ranges, required keys. Handlers then get clean values. Every problem says
 * what to send instead.
 */
import { fail, type Result } from "../../errors.ts";
import type { ParamSpec, ToolSpec } from "./definitions.ts";

export type ArgValue = string | number | boolean | undefined;
export type Args = Record<string, ArgValue>;

function checkOne(name: string, p: ParamSpec, raw: unknown): { value: ArgValue } | { problem: string } {
  if (raw === undefined || raw === null || raw === "") return { value: undefined };
  switch (p.type) {
    case "string":
      return typeof raw === "string" ? { value: raw } : { problem: `${name} must be a string` };
    case "boolean":
      if (typeof raw === "boolean") return { value: raw };
      if (raw === "true" || raw === "false") return { value: raw === "true" };
      return { problem: `${name} must be true or false` };
    case "integer": {
      const n = typeof raw === "string" && /^-?\d+$/.test(raw) ? Number(raw) : raw;
      const min = p.minimum ?? Number.MIN_SAFE_INTEGER;
      const max = p.maximum ?? Number.MAX_SAFE_INTEGER;
      if (typeof n !== "number" || !Number.isInteger(n) || n < min || n > max) {
        return {
          problem: `${name} must be a whole number${p.minimum !== undefined || p.maximum !== undefined ? ` from ${min} to ${max}` : ""}`,
        };
      }
      return { value: n };
    }
    default:
      // Lists are the kota tools' (kota/tool-args.ts checks them); no context tool takes one.
      return { problem: `${name} is a list, which this tool does not take` };
  }
}

export function checkArguments(spec: ToolSpec, raw: Record<string, unknown>): Result<{ args: Args }> {
  const args: Args = {};
  const problems: string[] = [];
  for (const [name, p] of Object.entries(spec.params)) {
    const r = checkOne(name, p, raw[name]);
    if ("problem" in r) problems.push(r.problem);
    else if (r.value === undefined && p.required) problems.push(`${spec.name} needs ${name} (${p.description})`);
    else args[name] = r.value;
  }
  return problems.length > 0 ? fail("BAD_ARGUMENTS", `${problems.join("; ")}.`) : { ok: true, args };
}
