/**
 * Names bound to other modules inside code: `const m = await import("../../m")` (also through
 * `(await import("./m")) as typeof M`), `({ a } = await import("./m"))`, `import("./m").then(({ a }) => ...)`, `require("./m")`
 * (and `require("./m").a`), imports inside an ambient `declare module "x" {}`, loader functions (`const load = () => import("../../m")`), destructuring of a namespace, import
 * types (`import("../../m").T`) and JSX tags. Part of the reference walk (extract-refs.ts).
 */

import type { UsageKind } from "../../contract.ts";
import { bodyList, literalString, type N, nameOf } from "./ast.ts";
import { bindImport } from "./extract-module.ts";
import type { FactsBuilder, ModuleBinding } from "./facts.ts";
import { chainRef } from "./ref-chains.ts";
import { type Binding, lookup, type Scope, scopeOf } from "./ref-scope.ts";

export type WalkCore = {
  b: FactsBuilder;
  walk(node: N, scope: Scope): void;
  pattern(p: N | null | undefined, scope: Scope): void;
  ref(id: N, scope: Scope, kind: UsageKind): void;
  namespaceMember(object: N, property: N, scope: Scope, kind: UsageKind): boolean;
  fn(node: N, outer: Scope, method?: boolean, bound?: [string, Binding][]): void;
};

/** Wrappers that leave the value as it is: `(x)`, `x as T`, `x satisfies T`, `x!`, `<T>x`, `await x`. */
const SAME_VALUE = new Set([
  "ParenthesizedExpression",
  "TSAsExpression",
  "TSSatisfiesExpression",
  "TSNonNullExpression",
  "TSTypeAssertion",
]);

/** The expression inside such wrappers, and the types they name (still references). */
function unwrap(node: N | null | undefined): { inner: N | null; types: N[] } {
  const types: N[] = [];
  let at = node ?? null;
  for (;;) {
    if (at?.type === "AwaitExpression") at = at.argument ?? null;
    else if (at && SAME_VALUE.has(at.type)) {
      if (at.typeAnnotation) types.push(at.typeAnnotation);
      at = at.expression ?? null;
    } else return { inner: at, types };
  }
}

export function createBindingRules(w: WalkCore) {
  const { b, walk, pattern, ref, namespaceMember } = w;
  const keyRefs = (objectPattern: N, importIdx: number, prefix = ""): void => {
    for (const p of objectPattern.properties ?? []) {
      const key = p.type === "Property" && !p.computed ? nameOf(p.key) : null;
      if (key) b.addRef({ importIdx, name: prefix + key, owner: null, member: false, kind: prefix ? "property" : "import" }, p.key!.start);
    }
  };

  /** Functions that only return `import("../../m")` (`const load = () => import("../../m")`), by name: their calls are that import. */
  const loaders = new Map<string, number>();

  const requireOf = (init: N | null, scope: Scope): string | null =>
    init?.type === "CallExpression" && init.callee?.type === "Identifier" && init.callee.name === "require" && !lookup(scope, "require")
      ? literalString(init.arguments?.[0])
      : null;

  /** `const m = await import("../../m")`, `const { a } = require("./m")`, `= await load()`: the names bind to that module. */
  const declarator = (node: N, scope: Scope): void => {
    let init = node.init ?? null;
    if (init?.type === "AwaitExpression") init = init.argument ?? null;
    // `(await import("./m")) as typeof M`: the import inside, its types walked as well.
    const wrapped = init && init.type !== "ImportExpression" ? unwrap(node.init) : null;
    if (wrapped?.inner?.type === "ImportExpression") {
      init = wrapped.inner;
      for (const t of wrapped.types) walk(t, scope);
    }
    if (init?.type === "ArrowFunctionExpression" && node.id?.type === "Identifier" && node.id.name) {
      const body = init.body as N;
      const target = body?.type === "ImportExpression" ? literalString(body.source) : null;
      if (target !== null) {
        loaders.set(node.id.name, b.addImport(target, "dynamic", body.start));
        pattern(node.id, scope);
        return;
      }
    }
    const ns = init?.type === "Identifier" && node.id?.type === "ObjectPattern" ? lookup(scope, init.name ?? "") : undefined;
    if (ns && ns !== "local" && ns.importIdx !== null) {
      // `const { a } = ns` on a namespace import: the keys name the module's exports; on a named
      // import they name members of it (`util.a` if it is a re-exported namespace).
      keyRefs(node.id!, ns.importIdx, ns.imported === "*" ? "" : `${ns.imported}.`);
      if (ns.imported !== "*") walk(init!, scope);
      pattern(node.id, scope);
      return;
    }
    const loaded = init?.type === "CallExpression" && init.callee?.type === "Identifier" ? loaders.get(init.callee.name ?? "") : undefined;
    const spec = init?.type === "ImportExpression" ? literalString(init.source) : requireOf(init, scope);
    if (!init || (spec === null && loaded === undefined)) {
      pattern(node.id, scope);
      if (node.init) walk(node.init, scope);
      return;
    }
    if (loaded !== undefined) walk(init, scope); // the call is a use of the loader itself
    const importIdx = loaded ?? b.addImport(spec!, init.type === "ImportExpression" ? "dynamic" : "require", init.start);
    const id = node.id!;
    if (id.type === "Identifier" && id.name) scope.vars.set(id.name, { importIdx, imported: "*" });
    else if (id.type === "ObjectPattern") {
      // `const { a } = await import("../../m")`: the key names m's export `a`; the variable is a new local
      // (as TypeScript sees it: its later uses are references to the local, not to `a`).
      keyRefs(id, importIdx);
      pattern(id, scope);
    } else pattern(id, scope);
  };

  const importType = (node: N, scope: Scope): void => {
    const spec = literalString(node.source as N) ?? literalString(node.argument as N);
    const qualifier = node.qualifier as N | null;
    if (spec !== null) {
      const importIdx = b.addImport(spec, "type", node.start);
      let first = qualifier;
      while (first?.type === "TSQualifiedName") first = first.left ?? null;
      const name = nameOf(first);
      if (name) b.addRef({ importIdx, name, owner: null, member: false, kind: "type" }, first!.start);
    }
    if (node.typeArguments) walk(node.typeArguments as N, scope);
  };

  const jsxName = (name: N, scope: Scope): void => {
    if (name.type === "JSXIdentifier") {
      // Lower-case tags are intrinsic elements (`<div>`), not references.
      if (name.name && /^[A-Z_$]/.test(name.name)) ref(name, scope, "jsx");
    } else if (name.type === "JSXMemberExpression") {
      chainRef(b, name, scope, "jsx");
      const object = name.object!;
      if (!namespaceMember(object, name.property!, scope, "jsx")) {
        if (object.type === "JSXIdentifier") ref(object, scope, "jsx");
        else jsxName(object, scope);
        const prop = nameOf(name.property);
        if (prop) b.addRef({ importIdx: null, name: prop, owner: null, member: true, kind: "jsx" }, name.property!.start);
      }
    }
  };

  /** `require("x")` with one literal argument, unless `require` is a local of that name: adds the import, returns its index. Null for any other call. */
  const requireImport = (node: N, scope: Scope): number | null => {
    const c = node.callee;
    const args = node.arguments ?? [];
    if (node.type !== "CallExpression" || c?.type !== "Identifier" || c.name !== "require" || lookup(scope, "require") !== undefined)
      return null;
    const spec = literalString(args[0]);
    if (spec === null || args.length !== 1) return null;
    return b.addImport(spec, "require", node.start);
  };
  const requireCall = (node: N, scope: Scope): boolean => requireImport(node, scope) !== null;

  /** `require("./m").a` (not computed): a reference to m's export `a`, the call its import. Returns false for any other member. */
  const requireMember = (node: N, scope: Scope, kind: UsageKind): boolean => {
    const object = node.object;
    if (object?.type !== "CallExpression") return false;
    const importIdx = requireImport(object, scope);
    if (importIdx === null) return false;
    const name = nameOf(node.property);
    if (name) b.addRef({ importIdx, name, owner: null, member: false, kind }, node.property!.start);
    return true;
  };

  /**
   * `declare module "x" { import ... }` at the top of a global script (an ambient module, not an
   * augmentation): TypeScript resolves the block's imports and re-exports from this file, except
   * relative ones (program.ts, collectModuleReferences); the names they bind are seen in the block only.
   */
  const ambientModule = (node: N, scope: Scope): void => {
    const body = node.body as N | null;
    if (!body) return;
    const bound = new Map<string, ModuleBinding>();
    for (const s of bodyList(body)) {
      const spec = literalString(s.source as N | undefined) ?? literalString((s.moduleReference as N | undefined)?.expression);
      if (spec === null || spec.startsWith("./") || spec.startsWith("../") || spec === "." || spec === "..") continue;
      if (s.type === "ExportNamedDeclaration") {
        const importIdx = b.addImport(spec, "reexport", s.start);
        for (const sp of s.specifiers ?? []) {
          const name = nameOf(sp.local);
          if (!name) continue;
          b.addRef({ importIdx, name, owner: null, member: false, kind: "reexport" }, (sp.local as N).start);
          if (sp.exported && sp.local && sp.exported.start !== sp.local.start)
            b.addRef({ importIdx, name, owner: null, member: false, kind: "reexport" }, sp.exported.start);
        }
      } else if (s.type === "ExportAllDeclaration") b.addImport(spec, "export_all", s.start);
      else bindImport(b, s, bound);
    }
    const inner = scopeOf(scope);
    for (const [k, v] of bound) inner.vars.set(k, v);
    walk(body, inner);
  };

  /**
   * `import("./m").then(({ a }) => ...)`: the keys name m's exports (as TypeScript reads them);
   * `.then((m) => m.a)`: the parameter is m's namespace. Returns false for any other call.
   */
  const importThen = (node: N, scope: Scope): boolean => {
    const c = node.callee;
    if (node.type !== "CallExpression" || c?.type !== "MemberExpression" || c.computed || nameOf(c.property) !== "then") return false;
    const source = c.object?.type === "ImportExpression" ? literalString(c.object.source) : null;
    if (source === null) return false;
    const importIdx = b.addImport(source, "dynamic", c.object!.start);
    b.addRef({ importIdx: null, name: "then", owner: null, member: true, kind: "call" }, c.property!.start);
    if (node.typeArguments) walk(node.typeArguments as N, scope);
    const args = node.arguments ?? [];
    args.forEach((a, i) => {
      const param = i === 0 && (a.type === "ArrowFunctionExpression" || a.type === "FunctionExpression") ? a.params?.[0] : undefined;
      if (param?.type === "ObjectPattern") {
        keyRefs(param, importIdx);
        w.fn(a, scope);
      } else if (param?.type === "Identifier" && param.name) w.fn(a, scope, false, [[param.name, { importIdx, imported: "*" }]]);
      else walk(a, scope);
    });
    return true;
  };

  /** `({ a } = await import("./m"))`: the keys name m's exports, as in a declaration. Returns false for any other assignment. */
  const importAssign = (node: N, scope: Scope): boolean => {
    const left = node.left;
    if (left?.type !== "ObjectPattern" || node.operator !== "=") return false;
    const { inner, types } = unwrap(node.right);
    const source = inner?.type === "ImportExpression" ? literalString(inner.source) : null;
    if (source === null) return false;
    keyRefs(left, b.addImport(source, "dynamic", inner!.start));
    walk(left, scope);
    for (const t of types) walk(t, scope);
    return true;
  };

  return { declarator, importType, jsxName, requireCall, requireMember, ambientModule, importThen, importAssign };
}
