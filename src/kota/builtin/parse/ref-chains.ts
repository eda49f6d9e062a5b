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

/** The identifier at the root of `a.b.c` (member expressions, qualified type names, JSX tags) and the names after it. */
function chainOf(node: N): { root: N; props: N[] } | null {
  const props: N[] = [];
  let at: N | undefined = node;
  while (at) {
    if ((at.type === "MemberExpression" || at.type === "JSXMemberExpression") && !at.computed) {
      props.unshift(at.property!);
      at = at.object;
    } else if (at.type === "TSQualifiedName") {
      props.unshift(at.right!);
      at = at.left;
    } else break;
  }
  if (!at || (at.type !== "Identifier" && at.type !== "JSXIdentifier") || props.length === 0) return null;
  return { root: at, props };
}

/** Adds the dotted reference a whole chain makes (each level of a chain is asked separately). */
export function chainRef(b: FactsBuilder, node: N, scope: Scope, kind: UsageKind): void {
  const chain = chainOf(node);
  if (!chain) return;
  const binding = lookup(scope, chain.root.name ?? "");
  if (!binding || binding === "local" || binding.importIdx === null) return;
  const names = chain.props.map((p) => nameOf(p));
  if (names.some((n) => n === null)) return;
  const segments = binding.imported === "*" ? (names as string[]) : [binding.imported, ...(names as string[])];
  // One segment is a plain import reference, recorded by the walk itself.
  if (segments.length < 2 || segments.length > MAX_SEGMENTS) return;
  const last = chain.props[chain.props.length - 1]!;
  b.addRef({ importIdx: binding.importIdx, name: segments.join("."), owner: null, member: false, kind }, last.start);
}
