/**
 * The references a name makes where the walk meets it, looked up through the scopes it sits in: a
 * plain name (`x`), a namespace member (`ns.x`) and the one-link member access (`a.b`). The walk
 * (extract-refs.ts) calls these; they add to the file's facts and walk nothing themselves.
 */

import type { UsageKind } from "../../contract.ts";
import { type N, nameOf } from "./ast.ts";
import type { FactsBuilder } from "./facts.ts";
import { lookup, type Scope } from "./ref-scope.ts";

/** A name in a reference position: a use of the import's export it is bound to, or of this file's top-level symbol. */
export function nameRef(b: FactsBuilder, id: N, scope: Scope, kind: UsageKind): void {
  const name = id.name;
  if (!name) return;
  const binding = lookup(scope, name);
  if (binding === undefined || binding === "local") return;
  if (binding.importIdx === null) b.addRef({ importIdx: null, name, owner: null, member: false, kind }, id.start);
  else if (binding.imported !== "*")
    b.addRef({ importIdx: binding.importIdx, name: binding.imported, owner: null, member: false, kind }, id.start);
}

/** `ns.x` on a namespace import: a reference to the module's export `x`. Returns false if `object` is no namespace. */
export function namespaceRef(b: FactsBuilder, object: N, property: N, scope: Scope, kind: UsageKind): boolean {
  if (object.type !== "Identifier" && object.type !== "JSXIdentifier") return false;
  const binding = lookup(scope, object.name ?? "");
  if (!binding || binding === "local" || binding.imported !== "*") return false;
  const name = nameOf(property);
  if (name) b.addRef({ importIdx: binding.importIdx, name, owner: null, member: false, kind }, property.start);
  return true;
}

/**
 * `a.b`, the most common member access: what chainRef, namespaceRef and the walk of `a` add, in
 * that order, with `a` looked up once instead of three times. On a namespace import, `ns.b` is the
 * module's export `b`; on another import, `a.b` is the dotted chain `imported.b` and `a` a use of the
 * import; on a top-level name, a use of it. Then `b` as a member, unless a namespace took it.
 */
export function oneLink(b: FactsBuilder, object: N, property: N, scope: Scope, kind: UsageKind): void {
  const local = object.name;
  const binding = local ? lookup(scope, local) : undefined;
  const name = nameOf(property);
  if (binding !== undefined && binding !== "local") {
    if (binding.importIdx === null) b.addRef({ importIdx: null, name: local!, owner: null, member: false, kind: "value" }, object.start);
    else if (binding.imported === "*") {
      if (name) b.addRef({ importIdx: binding.importIdx, name, owner: null, member: false, kind }, property.start);
      return;
    } else {
      if (name !== null)
        b.addRef({ importIdx: binding.importIdx, name: `${binding.imported}.${name}`, owner: null, member: false, kind }, property.start);
      b.addRef({ importIdx: binding.importIdx, name: binding.imported, owner: null, member: false, kind: "value" }, object.start);
    }
  }
  if (name) b.addRef({ importIdx: null, name, owner: null, member: true, kind }, property.start);
}
