/**
 * Arguments checked against a tool's full input schema before the call leaves: a model that
 * guessed gets told exactly what was wrong instead of a server's stack trace.
 */
import type Ajv from "ajv";
import type { ValidateFunction } from "ajv";
import { inlineRefs, type JsonSchema } from "./schema.ts";

export type Validation = { ok: true } | { ok: false; problems: string[] };

// Ajv is loaded at the first validated call, not with the tools.
let ajv: Ajv | null = null;
const compiled = new WeakMap<object, ValidateFunction | null>();

async function validator(schema: JsonSchema): Promise<ValidateFunction | null> {
  if (!ajv) {
    const { default: AjvClass } = await import("ajv");
    ajv = new AjvClass({ allErrors: true, strict: false, validateFormats: false });
  }
  if (compiled.has(schema)) return compiled.get(schema)!;
  let fn: ValidateFunction | null;
  try {
    fn = ajv.compile(inlineRefs(schema));
  } catch {
    fn = null; // a schema Ajv cannot read is the server's to enforce
  }
  compiled.set(schema, fn);
  return fn;
}

export async function validateArguments(schema: JsonSchema, args: unknown): Promise<Validation> {
  const fn = await validator(schema);
  if (!fn || fn(args)) return { ok: true };
  const problems = (fn.errors ?? []).map((e) => {
    const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, ".") : "arguments";
    if (e.keyword === "required")
      return `${at === "arguments" ? "" : `${at}.`}${(e.params as { missingProperty: string }).missingProperty}: required`;
    if (e.keyword === "additionalProperties")
      return `${at}: unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    if (e.keyword === "enum") return `${at}: must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    return `${at}: ${e.message ?? e.keyword}`;
  });
  return { ok: false, problems: [...new Set(problems)] };
}
