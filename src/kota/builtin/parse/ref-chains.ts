/**
 * Member chains rooted at an import: `z.core.X` (z a namespace import) is a use of the module's
 * `core.X`, and `util.foo` (util a named import that turns out to be a re-exported namespace,
 * `export * as util` or `import * as util; export { util }`) a use of `util.foo`. Such references are
 * stored under dotted names, up to three segments from the import; the usages query follows
 * namespace re-exports to match them (builtin/query/usages.ts). Part of the reference walk.
 */

import type { UsageKind } from "../../contract.ts";
import { type N, nameOf } from "./ast.ts";
import type { FactsBuilder } from "./facts.ts";
import { lookup, type Scope } from "./ref-scope.ts";

export const MAX_SEGMENTS = 3;

/** The next link of a chain toward its root (`a.b` -> `a`), or undefined when `node` is no link. */
function inner(node: N): N | undefined {
  if ((node.type === "MemberExpression" || node.type === "JSXMemberExpression") && !node.computed) return node.object;
  if (node.type === "TSQualifiedName") return node.left;
  return undefined;
}

/** The name a link adds to its chain (`a.b` -> `b`). */
function linkName(node: N): N {
  return (node.type === "TSQualifiedName" ? node.right : node.property)!;
}

/**
 * Adds the dotted reference a whole chain makes (each level of a chain is asked separately). Most
 * chains start at a local or `this`: the root's binding is looked up before the names are gathered.
 */
export function chainRef(b: FactsBuilder, node: N, scope: Scope, kind: UsageKind): void {
  let root: N = node;
  let links = 0;
  for (let next = inner(root); next; next = inner(root)) {
    root = next;
    links++;
  }
  if (links === 0 || links > MAX_SEGMENTS || (root.type !== "Identifier" && root.type !== "JSXIdentifier")) return;
  const binding = lookup(scope, root.name ?? "");
  if (!binding || binding === "local" || binding.importIdx === null) return;
  const names: string[] = [];
  for (let at = node; at !== root; at = inner(at)!) {
    const name = nameOf(linkName(at));
    if (name === null) return;
    names.unshift(name);
  }
  const segments = binding.imported === "*" ? names : [binding.imported, ...names];
  // One segment is a plain import reference, recorded by the walk itself.
  if (segments.length < 2 || segments.length > MAX_SEGMENTS) return;
  b.addRef({ importIdx: binding.importIdx, name: segments.join("."), owner: null, member: false, kind }, linkName(node).start);
}
