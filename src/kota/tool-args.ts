/**
 * The kota tools' parameters (the shared ToolSpec of tool-spec.ts, lists included),
 * and the check every call goes through before it runs (types, ranges, allowed values, required and
 * unknown keys), with a message that says what to send instead.
 */
import type { ParamSpec, ToolSpec } from "../tool-spec.ts";

export type KotaParamSpec = ParamSpec;
export type KotaToolSpec = ToolSpec;

export type ToolArgs = Record<string, string | number | boolean | string[] | undefined>;

/** The checked value of one parameter: its values when it lists them, else its type. */
type ValueOf<P extends KotaParamSpec> = P["type"] extends "string[]"
  ? string[]
  : P["type"] extends "integer"
    ? number
    : P["type"] extends "boolean"
      ? boolean
      : P["values"] extends readonly (infer V)[]
        ? V
        : string;

/** A tool's arguments once checkToolArgs passed them: required ones present, each of its type. */
export type ArgsOf<S extends KotaToolSpec> = {
  [K in keyof S["params"] as S["params"][K]["required"] extends true ? K : never]: ValueOf<S["params"][K]>;
} & {
  [K in keyof S["params"] as S["params"][K]["required"] extends true ? never : K]?: ValueOf<S["params"][K]>;
};

export function checkToolArgs(spec: KotaToolSpec, raw: Record<string, unknown>): { args: ToolArgs } | { problem: string } {
  const args: ToolArgs = {};
  const problems: string[] = [];
  for (const [name, p] of Object.entries(spec.params)) {
    const v = raw[name];
    if (v === undefined || v === null || v === "") {
      if (p.required) problems.push(`${spec.name} needs ${name} (${p.description})`);
      continue;
    }
    if (p.type === "string[]") {
      const list = Array.isArray(v) ? v : typeof v === "string" ? v.split(/[,\s]+/) : null;
      if (!list?.every((x) => typeof x === "string")) problems.push(`${name} must be a list of paths`);
      else args[name] = (list as string[]).map((x) => x.trim()).filter(Boolean);
    } else if (p.type === "string") {
      if (typeof v !== "string") problems.push(`${name} must be a string`);
      else if (p.values && !p.values.includes(v)) problems.push(`${name} must be one of ${p.values.join(", ")} (got ${v})`);
      else args[name] = v;
    } else if (p.type === "boolean") {
      if (typeof v === "boolean") args[name] = v;
      else if (v === "true" || v === "false") args[name] = v === "true";
      else problems.push(`${name} must be true or false`);
    } else {
      const n = typeof v === "string" && /^-?\d+$/.test(v) ? Number(v) : v;
      if (typeof n !== "number" || !Number.isInteger(n) || n < (p.minimum ?? -Infinity) || n > (p.maximum ?? Infinity)) {
        problems.push(`${name} must be a whole number from ${p.minimum} to ${p.maximum}`);
      } else args[name] = n;
    }
  }
  for (const key of Object.keys(raw))
    if (!(key in spec.params)) problems.push(`unknown argument ${key} (${spec.name} takes ${Object.keys(spec.params).join(", ")})`);
  return problems.length > 0 ? { problem: `${problems.join("; ")}.` } : { args };
}
