/**
 * JSON Schema shapes for the model: the full schema with local `$ref`s inlined (pi's
 * validator and many providers do not follow refs), and the one-line signature that stubs and
 * search results show: argument names, types, `?` for optional, enums of up to 20 values,
 * nested objects and arrays two levels deep, refs resolved.
 */
export type JsonSchema = Record<string, unknown>;

const MAX_ENUM = 20;
const SIGNATURE_DEPTH = 2;

function isObject(v: unknown): v is JsonSchema {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Follows a local JSON pointer (`#/$defs/X`, `#/definitions/X`); null for anything else. */
function lookup(root: JsonSchema, ref: string): JsonSchema | null {
  if (!ref.startsWith("#")) return null;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").filter(Boolean)) {
    const key = decodeURIComponent(raw).replace(/~1/g, "/").replace(/~0/g, "~");
    if (!isObject(node)) return null;
    node = node[key];
  }
  return isObject(node) ? node : null;
}

/** The schema with every resolvable local `$ref` replaced by its target (cycles become `{}`). */
export function inlineRefs(schema: JsonSchema): JsonSchema {
  const walk = (node: unknown, seen: Set<string>): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, seen));
    if (!isObject(node)) return node;
    if (typeof node.$ref === "string") {
      const target = seen.has(node.$ref) ? null : lookup(schema, node.$ref);
      if (!target) return seen.has(node.$ref) ? {} : node;
      const { $ref: _ref, ...rest } = node;
      return walk({ ...target, ...rest }, new Set([...seen, node.$ref]));
    }
    const out: JsonSchema = {};
    for (const [k, v] of Object.entries(node)) {
      if (k === "$defs" || k === "definitions" || k === "$schema") continue;
      out[k] = walk(v, seen);
    }
    return out;
  };
  const out = walk(schema, new Set()) as JsonSchema;
  return { type: "object", ...out };
}

function typesOf(node: JsonSchema): string[] {
  if (typeof node.type === "string") return [node.type];
  if (Array.isArray(node.type)) return node.type.filter((t): t is string => typeof t === "string");
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = node[key];
    if (Array.isArray(members)) return [...new Set(members.filter(isObject).flatMap(typesOf))];
  }
  if (isObject(node.properties)) return ["object"];
  if (node.items !== undefined) return ["array"];
  return [];
}

function objectProps(node: JsonSchema): Record<string, JsonSchema> | null {
  if (isObject(node.properties)) return node.properties as Record<string, JsonSchema>;
  for (const key of ["anyOf", "oneOf", "allOf"] as const) {
    const members = node[key];
    if (!Array.isArray(members)) continue;
    const merged: Record<string, JsonSchema> = {};
    for (const m of members) if (isObject(m) && isObject(m.properties)) Object.assign(merged, m.properties);
    if (Object.keys(merged).length > 0) return merged;
  }
  return null;
}

function requiredOf(node: JsonSchema): string[] {
  if (Array.isArray(node.required)) return node.required.filter((r): r is string => typeof r === "string");
  const all = node.allOf;
  return Array.isArray(all) ? all.filter(isObject).flatMap(requiredOf) : [];
}

function itemsOf(node: JsonSchema): JsonSchema | null {
  if (isObject(node.items)) return node.items;
  for (const key of ["anyOf", "oneOf"] as const) {
    const members = node[key];
    if (Array.isArray(members)) for (const m of members) if (isObject(m) && isObject(m.items)) return m.items;
  }
  return null;
}

/** The description's first sentence, at most `max` characters. */
export function firstSentence(text: string | undefined, max = 100): string {
  const t = (text ?? "").replace(/\s+/g, " ").trim();
  const m = /^(.+?[.!?])(\s|$)/.exec(t);
  const s = m ? m[1]! : t;
  if (s.length <= max) return s;
  const cut = s.slice(0, max - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > max / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:]+$/, "")}…`;
}

function typeText(node: JsonSchema, depth: number): string {
  if (Array.isArray(node.enum) && node.enum.length <= MAX_ENUM) return node.enum.map((e) => JSON.stringify(e)).join("|");
  const types = typesOf(node);
  const props = objectProps(node);
  if (types.includes("object") && props && depth < SIGNATURE_DEPTH) return `{${fields(node, props, depth + 1)}}`;
  const items = itemsOf(node);
  if (types.includes("array") && items) return `${typeText(items, depth + 1)}[]`;
  return types.join("|") || "any";
}

function fields(node: JsonSchema, props: Record<string, JsonSchema>, depth: number): string {
  const required = new Set(requiredOf(node));
  return Object.entries(props)
    .map(([k, v]) => `${k}${required.has(k) ? "" : "?"}: ${typeText(v, depth)}`)
    .join(", ");
}

/** `name(a: string, b?: {c: "x"|"y"}[])`: the arguments a call needs, on one line. */
export function signature(name: string, schema: JsonSchema): string {
  const full = inlineRefs(schema);
  const props = objectProps(full) ?? {};
  return `${name}(${fields(full, props, 0)})`;
}
