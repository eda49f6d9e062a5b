/**
 * A loose view of oxc's ESTree nodes: the extractor walks them generically (by oxc's visitor keys)
 * and reads a handful of fields by name, so one structural type serves better than the full union.
 */
import visitorKeys from "oxc-parser/src-js/generated/visit/keys.js";

export interface N {
  type: string;
  start: number;
  end: number;
  name?: string;
  value?: unknown;
  kind?: string;
  computed?: boolean;
  shorthand?: boolean;
  importKind?: string;
  exportKind?: string;
  id?: N | null;
  key?: N;
  local?: N;
  imported?: N;
  exported?: N | null;
  source?: N | null;
  declaration?: N | null;
  specifiers?: N[];
  declarations?: N[];
  init?: N | null;
  params?: N[];
  body?: N | N[] | null;
  expression?: N | null;
  object?: N;
  property?: N;
  callee?: N;
  arguments?: N[];
  argument?: N | null;
  left?: N;
  right?: N;
  properties?: N[];
  elements?: (N | null)[];
  typeAnnotation?: N | null;
  typeParameters?: N | null;
  decorators?: N[];
  [key: string]: unknown;
}

type Visit = (node: N, fn: (child: N, arg: never) => void, arg: never) => void;

/**
 * One function per node type that calls `fn` on that type's children, in oxc's key order, made
 * from oxc's visitor keys (data, not code from input). A walk visits every node: read through a
 * fixed property name, each child is a monomorphic load, where a generic loop over the key names
 * reads every property by a computed name (that took a whole walk about three times as long).
 */
function visitorOf(keys: readonly string[]): Visit {
  if (keys.length === 0) return () => {};
  for (const key of keys) if (!/^[A-Za-z]+$/.test(key)) throw new Error(`unexpected oxc visitor key: ${key}`);
  const body = keys
    .map(
      (key) =>
        `v = node.${key};\n` +
        "if (v) { if (Array.isArray(v)) { for (let i = 0; i < v.length; i++) { const c = v[i]; if (c && typeof c === 'object') fn(c, arg); } } else if (typeof v === 'object') fn(v, arg); }",
    )
    .join("\n");
  return new Function("node", "fn", "arg", `let v;\n${body}`) as Visit;
}

const VISITORS = new Map<string, Visit>();
for (const [type, keys] of Object.entries(visitorKeys as unknown as Record<string, readonly string[]>)) VISITORS.set(type, visitorOf(keys));

/**
 * Calls `fn(child, arg)` on every child node of `node`, in source order. The argument is passed
 * through (a walk's scope) so that visiting a node allocates no closure: a walk visits every node.
 */
export function eachChild<A>(node: N, fn: (child: N, arg: A) => void, arg: A): void {
  const visit = VISITORS.get(node.type);
  if (visit) visit(node, fn as (child: N, arg: never) => void, arg as never);
}

export function bodyList(node: N | null | undefined): N[] {
  if (!node) return [];
  const body = node.body;
  return Array.isArray(body) ? body : [];
}

/** The string of a module specifier: a string literal or a template literal without `${}`. */
export function literalString(node: N | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "TemplateLiteral" && Array.isArray(node.expressions) && node.expressions.length === 0) {
    const quasi = (node.quasis as N[])[0];
    const cooked = (quasi?.value as { cooked?: string } | undefined)?.cooked;
    return typeof cooked === "string" ? cooked : null;
  }
  if (node.type === "TSLiteralType") return literalString(node.literal as N);
  return null;
}

/** The name of an identifier or string-literal module export name (`export { "a b" as c }`). */
export function nameOf(node: N | null | undefined): string | null {
  if (!node) return null;
  if (node.type === "Identifier" || node.type === "JSXIdentifier") return node.name ?? null;
  if (node.type === "Literal" && typeof node.value === "string") return node.value;
  if (node.type === "PrivateIdentifier") return `#${node.name}`;
  return null;
}

/** Every name a binding pattern declares (`{ a, b: [c, ...d] = x }` -> a, c, d). */
export function patternNames(pattern: N | null | undefined, out: N[] = []): N[] {
  if (!pattern) return out;
  switch (pattern.type) {
    case "Identifier":
      out.push(pattern);
      break;
    case "ObjectPattern":
      for (const p of pattern.properties ?? []) patternNames(p.type === "RestElement" ? p.argument : (p.value as N), out);
      break;
    case "ArrayPattern":
      for (const e of pattern.elements ?? []) patternNames(e, out);
      break;
    case "AssignmentPattern":
      patternNames(pattern.left, out);
      break;
    case "RestElement":
      patternNames(pattern.argument, out);
      break;
    case "TSParameterProperty":
      patternNames(pattern.parameter as N, out);
      break;
  }
  return out;
}
