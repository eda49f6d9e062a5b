/**
 * The reference walk: every identifier in a reference position is looked up through the scopes it
 * sits in. Names bound by an import become references to that import's export; top-level names
 * become references to this file's symbol; locals (parameters, inner variables) are dropped, so a
 * local `compose` never counts as a use of an imported one. Member accesses (`a.b`) are kept by name
 * for members; `ns.b` on a namespace import is a reference to the module's export `b`.
 */

import type { UsageKind } from "../../contract.ts";
import { bodyList, eachChild, literalString, type N, nameOf, patternNames } from "./ast.ts";
import { ambientModuleTest } from "./extract-module.ts";
import type { FactsBuilder, ModuleBinding } from "./facts.ts";
import { createBindingRules } from "./ref-bindings.ts";
import { chainRef } from "./ref-chains.ts";
import { nameRef, namespaceRef, oneLink } from "./ref-names.ts";
import { type Binding, declare, hoist, KIND, lookup, nodeName, rootScope, type Scope, scopeOf, WALK_KIND } from "./ref-scope.ts";

export function extractRefs(b: FactsBuilder, program: N, moduleScope: Map<string, ModuleBinding>): void {
  const root = rootScope(bodyList(program), moduleScope);

  const ref = (id: N, scope: Scope, kind: UsageKind): void => nameRef(b, id, scope, kind);
  const namespaceMember = (object: N, property: N, scope: Scope, kind: UsageKind): boolean =>
    namespaceRef(b, object, property, scope, kind);

  const member = (node: N, scope: Scope, kind: UsageKind): void => {
    const object = node.object!;
    const property = node.property!;
    if (node.computed) {
      walk(object, scope);
      walk(property, scope);
      return;
    }
    if (object.type === "Identifier") {
      oneLink(b, object, property, scope, kind);
      return;
    }
    if (object.type === "ThisExpression") {
      // No chain starts at `this` and it names nothing: only the member, owned by the enclosing class.
      const name = nameOf(property);
      if (name) b.addRef({ importIdx: null, name, owner: scope.owner, member: true, kind }, property.start);
      return;
    }
    chainRef(b, node, scope, kind);
    if (namespaceMember(object, property, scope, kind) || rules.requireMember(node, scope, kind)) return;
    walk(object, scope);
    const name = nameOf(property);
    if (!name) return;
    const owner = object.type === "ThisExpression" ? scope.owner : null;
    b.addRef({ importIdx: null, name, owner, member: true, kind }, property.start);
  };

  const typeName = (node: N, scope: Scope): void => {
    if (node.type === "Identifier") ref(node, scope, "type");
    else if (node.type === "TSQualifiedName") {
      chainRef(b, node, scope, "type");
      const left = node.left!;
      if (!namespaceMember(left, node.right!, scope, "type")) typeName(left, scope);
    } else if (node.type === "MemberExpression") {
      chainRef(b, node, scope, "type");
      if (!namespaceMember(node.object!, node.property!, scope, "type")) typeName(node.object!, scope);
    } else walk(node, scope);
  };

  /** Binds a pattern's names in `scope` and walks what it contains that is not a binding. */
  const pattern = (p: N | null | undefined, scope: Scope): void => {
    if (!p) return;
    switch (p.type) {
      case "Identifier": {
        // `z: typeof ns` on a namespace import: TypeScript reads `z.x` as the module's export `x`.
        // (A hoisted declaration of the same name in this scope is that variable itself.)
        const query = (p.typeAnnotation as N | null)?.typeAnnotation as N | undefined;
        const target = query?.type === "TSTypeQuery" ? (query.exprName as N) : undefined;
        const ns = target?.type === "Identifier" ? lookup(scope, target.name ?? "") : undefined;
        if (ns && ns !== "local" && ns.imported === "*" && p.name && (scope.vars.get(p.name) ?? "local") === "local")
          scope.vars.set(p.name, ns);
        else declare(scope, p);
        if (p.typeAnnotation) walk(p.typeAnnotation, scope);
        for (const d of p.decorators ?? []) walk(d, scope);
        return;
      }
      case "ObjectPattern":
        for (const prop of p.properties ?? []) {
          if (prop.type === "RestElement") pattern(prop.argument, scope);
          else {
            if (prop.computed) walk(prop.key!, scope);
            pattern(prop.value as N, scope);
          }
        }
        if (p.typeAnnotation) walk(p.typeAnnotation, scope);
        return;
      case "ArrayPattern":
        for (const e of p.elements ?? []) pattern(e, scope);
        if (p.typeAnnotation) walk(p.typeAnnotation, scope);
        return;
      case "AssignmentPattern":
        pattern(p.left, scope);
        walk(p.right!, scope);
        return;
      case "RestElement":
        pattern(p.argument, scope);
        if (p.typeAnnotation) walk(p.typeAnnotation, scope);
        return;
      case "TSParameterProperty":
        for (const d of p.decorators ?? []) walk(d, scope);
        pattern(p.parameter as N, scope);
        return;
      default:
        walk(p, scope); // a member expression as an assignment target
    }
  };

  const typeParams = (node: N, scope: Scope): void => {
    const tp = node.typeParameters;
    if (!tp) return;
    for (const p of (tp.params ?? []) as N[]) declare(scope, nodeName(p));
    walk(tp, scope);
  };

  /** `bound`: parameters bound to a module before the walk (`import("./m").then((m) => ...)`). */
  const fn = (node: N, outer: Scope, method = false, bound?: [string, Binding][]): void => {
    // A function expression's own name is visible inside it; `this` changes unless it is an arrow or a method.
    const scope = scopeOf(outer, method || node.type === "ArrowFunctionExpression" ? outer.owner : null);
    if (bound) for (const [name, binding] of bound) scope.vars.set(name, binding);
    for (const d of node.decorators ?? []) walk(d, outer);
    if (node.type === "FunctionExpression") declare(scope, node.id);
    typeParams(node, scope);
    for (const p of node.params ?? []) pattern(p, scope);
    if (node.returnType) walk(node.returnType as N, scope);
    const body = node.body as N | null;
    if (!body) return;
    if (body.type === "BlockStatement") {
      hoist(bodyList(body), scope, true);
      for (const s of bodyList(body)) walk(s, scope);
    } else walk(body, scope);
  };

  const cls = (node: N, outer: Scope): void => {
    for (const d of node.decorators ?? []) walk(d, outer);
    const name = nameOf(node.id) ?? "default";
    const scope = scopeOf(outer, name);
    if (node.type === "ClassExpression") declare(scope, node.id);
    typeParams(node, scope);
    if (node.superClass) walk(node.superClass as N, scope);
    if (node.superTypeArguments) walk(node.superTypeArguments as N, scope);
    for (const impl of (node.implements ?? []) as N[]) {
      typeName(impl.expression!, scope);
      if (impl.typeArguments) walk(impl.typeArguments as N, scope);
    }
    for (const m of bodyList(node.body as N)) walk(m, scope);
  };

  const walk = (node: N, scope: Scope): void => {
    const t = node.type;
    // The most common node first; then one lookup says whether it is a function, a signature or a keyed member.
    if (t === "Identifier") {
      ref(node, scope, "value");
      return;
    }
    const kind = WALK_KIND.get(t);
    if (kind === KIND.leaf) return;
    if (kind === KIND.function) {
      fn(node, scope);
      return;
    }
    if (kind === KIND.signature) {
      const inner = scopeOf(scope);
      if (t === "TSMethodSignature" && node.computed) walk(node.key!, scope);
      typeParams(node, inner);
      for (const p of node.params ?? []) pattern(p, inner);
      if (node.returnType) walk(node.returnType as N, inner);
      return;
    }
    switch (t) {
      case "ClassDeclaration":
      case "ClassExpression":
        cls(node, scope);
        return;
      case "BlockStatement":
      case "StaticBlock":
      case "TSModuleBlock": {
        const inner = scopeOf(scope);
        hoist(bodyList(node), inner, t === "StaticBlock");
        for (const s of bodyList(node)) walk(s, inner);
        return;
      }
      case "SwitchStatement": {
        walk(node.discriminant as N, scope);
        const inner = scopeOf(scope);
        const cases = (node.cases ?? []) as N[];
        hoist(
          cases.flatMap((c) => (c.consequent ?? []) as N[]),
          inner,
          false,
        );
        for (const c of cases) eachChild(c, walk, inner);
        return;
      }
      case "ForStatement":
      case "ForInStatement":
      case "ForOfStatement": {
        const inner = scopeOf(scope);
        const head = (node.init ?? node.left) as N | null;
        if (head?.type === "VariableDeclaration")
          for (const d of head.declarations ?? []) for (const id of patternNames(d.id)) declare(inner, id);
        eachChild(node, walk, inner);
        return;
      }
      case "CatchClause": {
        const inner = scopeOf(scope);
        pattern(node.param as N | null, inner);
        walk(node.body as N, inner);
        return;
      }
      case "VariableDeclarator":
        declarator(node, scope);
        return;
      case "MemberExpression":
        member(node, scope, "property");
        return;
      case "CallExpression":
      case "NewExpression":
        call(node, scope);
        return;
      case "TaggedTemplateExpression":
        callee(node.tag as N, scope, "call");
        if (node.typeArguments) walk(node.typeArguments as N, scope);
        walk(node.quasi as N, scope);
        return;
      case "ChainExpression":
        walk(node.expression!, scope);
        return;
      case "AssignmentExpression":
        if (rules.importAssign(node, scope)) return;
        break;
      case "ImportExpression": {
        const spec = literalString(node.source);
        if (spec !== null) b.addImport(spec, "dynamic", node.start);
        else walk(node.source!, scope);
        return;
      }
      case "Property":
        if (node.computed) walk(node.key!, scope);
        walk(node.value as N, scope);
        return;
      case "TSEnumMember":
        if (node.initializer) walk(node.initializer as N, scope);
        return;
      case "TSTypeReference":
        typeName(node.typeName as N, scope);
        if (node.typeArguments) walk(node.typeArguments as N, scope);
        return;
      case "TSTypeQuery":
        typeName(node.exprName as N, scope);
        if (node.typeArguments) walk(node.typeArguments as N, scope);
        return;
      case "TSInterfaceHeritage":
      case "TSClassImplements":
        typeName(node.expression!, scope);
        if (node.typeArguments) walk(node.typeArguments as N, scope);
        return;
      case "TSImportType":
        importType(node, scope);
        return;
      case "TSInterfaceDeclaration":
      case "TSTypeAliasDeclaration": {
        const inner = scopeOf(scope);
        typeParams(node, inner);
        for (const h of (node.extends ?? []) as N[]) walk(h, inner);
        walk((node.body ?? node.typeAnnotation) as N, inner);
        return;
      }
      case "TSMappedType": {
        const inner = scopeOf(scope);
        declare(inner, node.key);
        for (const k of ["constraint", "nameType", "typeAnnotation"]) if (node[k]) walk(node[k] as N, inner);
        return;
      }
      case "TSConditionalType": {
        const inner = scopeOf(scope);
        walk(node.checkType as N, scope);
        walk(node.extendsType as N, inner); // `infer X` declares X for the true branch
        walk(node.trueType as N, inner);
        walk(node.falseType as N, scope);
        return;
      }
      case "TSInferType": {
        const tp = node.typeParameter as N;
        declare(scope, nodeName(tp));
        if (tp.constraint) walk(tp.constraint as N, scope); // `infer X extends Schema`
        return;
      }
      case "TSTypeParameter":
        if (node.constraint) walk(node.constraint as N, scope);
        if (node.default) walk(node.default as N, scope);
        return;
      case "TSIndexSignature":
        for (const p of (node.parameters ?? []) as N[]) if (p.typeAnnotation) walk(p.typeAnnotation, scope);
        if (node.typeAnnotation) walk(node.typeAnnotation, scope);
        return;
      case "TSModuleDeclaration": {
        if (node.body) walk(node.body as N, scope);
        return;
      }
      case "TSEnumDeclaration":
      case "TSTypePredicate":
        if (t === "TSTypePredicate" && node.typeAnnotation) walk(node.typeAnnotation, scope);
        if (t === "TSEnumDeclaration") eachChild(node.body as N, walk, scope);
        return;
      case "TSNamedTupleMember":
        walk(node.elementType as N, scope);
        return;
      case "LabeledStatement":
        walk(node.body as N, scope);
        return;
      case "BreakStatement":
      case "ContinueStatement":
      case "MetaProperty":
      case "ImportDeclaration":
      case "ExportAllDeclaration":
      case "TSImportEqualsDeclaration":
      case "TSNamespaceExportDeclaration":
      case "JSXAttribute":
        if (t === "JSXAttribute" && node.value) walk(node.value as N, scope);
        if (t === "TSImportEqualsDeclaration" && (node.moduleReference as N)?.type !== "TSExternalModuleReference")
          typeName(node.moduleReference as N, scope);
        return;
      case "ExportNamedDeclaration":
        if (node.declaration) walk(node.declaration, scope);
        else if (!node.source) {
          for (const sp of node.specifiers ?? []) {
            if (sp.local?.type !== "Identifier") continue;
            ref(sp.local, scope, "export");
            // `export { a as b }`: the new name is a reference to `a` as well.
            if (sp.exported && sp.exported.start !== sp.local.start) ref({ ...sp.local, start: sp.exported.start }, scope, "export");
          }
        }
        return;
      case "ExportDefaultDeclaration":
      case "TSExportAssignment": {
        const d = (node.declaration ?? node.expression) as N;
        if (d.type === "Identifier") ref(d, scope, "export");
        else walk(d, scope);
        return;
      }
      case "JSXOpeningElement":
      case "JSXClosingElement":
        jsxName(nodeName(node)!, scope);
        if (node.typeArguments) walk(node.typeArguments as N, scope);
        for (const a of (node.attributes ?? []) as N[]) walk(a, scope);
        return;
    }
    if (kind === KIND.keyedMember) {
      for (const d of node.decorators ?? []) walk(d, scope);
      if (node.computed) walk(node.key!, scope);
      for (const k of ["value", "typeAnnotation", "typeParameters", "params", "returnType"]) {
        const v = node[k] as N | N[] | null | undefined;
        if (Array.isArray(v)) for (const x of v) pattern(x, scope);
        else if (v && k === "value" && v.type === "FunctionExpression") fn(v, scope, true);
        else if (v) walk(v, scope);
      }
      return;
    }
    eachChild(node, walk, scope);
  };

  const callee = (node: N, scope: Scope, kind: UsageKind): void => {
    if (node.type === "Identifier") ref(node, scope, kind);
    else if (node.type === "MemberExpression") member(node, scope, kind);
    else if (node.type === "ChainExpression") callee(node.expression!, scope, kind);
    else walk(node, scope);
  };

  const call = (node: N, scope: Scope): void => {
    const c = node.callee!;
    const args = node.arguments ?? [];
    // The rules take `require(...)` and `import(...).then(...)` only: other callees skip both calls.
    if (
      c.type === "Identifier"
        ? c.name === "require" && rules.requireCall(node, scope)
        : c.type === "MemberExpression" && rules.importThen(node, scope)
    )
      return;
    callee(c, scope, node.type === "NewExpression" ? "new" : "call");
    if (node.typeArguments) walk(node.typeArguments as N, scope);
    for (const a of args) walk(a, scope);
  };

  const rules = createBindingRules({ b, walk, pattern, ref, namespaceMember, fn });
  const { declarator, importType, jsxName } = rules;

  const statements = bodyList(program);
  const ambient = ambientModuleTest(statements);
  for (const s of statements) {
    if (ambient(s)) rules.ambientModule(s, root);
    else walk(s, root);
  }
}
