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

const KEYS = visitorKeys as unknown as Record<string, readonly string[]>;

/**
 * Calls `fn(child, arg)` on every child node of `node`, in source order. The argument is passed
 * through (a walk's scope) so that visiting a node allocates no closure: a walk visits every node.
 */
export function eachChild<A>(node: N, fn: (child: N, arg: A) => void, arg: A): void {
  const keys = KEYS[node.type];
  if (!keys) return;
  for (const key of keys) {
    const value = node[key];
    if (!value) continue;
    if (Array.isArray(value)) {
      for (const item of value) if (item && typeof item === "object") fn(item as N, arg);
    } else if (typeof value === "object") fn(value as N, arg);
  }
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
