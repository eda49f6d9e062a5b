/** Scopes for the reference walk: which names a block, function or class declares, hoisted before the walk. */
import visitorKeys from "oxc-parser/src-js/generated/visit/keys.js";
import { eachChild, type N, patternNames } from "./ast.ts";
import type { ModuleBinding } from "./facts.ts";

export type Binding = ModuleBinding | "local";
export type Scope = { vars: Map<string, Binding>; parent: Scope | null; owner: string | null };

export function scopeOf(parent: Scope, owner: string | null = parent.owner): Scope {
  return { vars: new Map(), parent, owner };
}

export function lookup(scope: Scope | null, name: string): Binding | undefined {
  for (let s = scope; s; s = s.parent) {
    const b = s.vars.get(name);
    if (b !== undefined) return b;
  }
  return undefined;
}

export const FUNCTIONS = new Set([
  "FunctionDeclaration",
  "FunctionExpression",
  "ArrowFunctionExpression",
  "TSDeclareFunction",
  "TSEmptyBodyFunctionExpression",
]);
export const SIGNATURES = new Set([
  "TSMethodSignature",
  "TSCallSignatureDeclaration",
  "TSConstructSignatureDeclaration",
  "TSFunctionType",
  "TSConstructorType",
]);
export const MEMBER_KEYED = new Set([
  "MethodDefinition",
  "PropertyDefinition",
  "AccessorProperty",
  "TSAbstractMethodDefinition",
  "TSAbstractPropertyDefinition",
  "TSAbstractAccessorProperty",
  "TSPropertySignature",
  "TSMethodSignature",
]);

/**
 * How the reference walk takes a node of a type first (one lookup per node instead of a set each).
 * `leaf`: a type without child nodes (a literal, `this`, a keyword type): nothing to walk, nothing
 * it names (a tenth of all nodes; the walk used to reach its empty visitor through the whole dispatch).
 */
export const KIND = { function: 1, signature: 2, keyedMember: 3, leaf: 4 } as const;
export const WALK_KIND = new Map<string, number>();
for (const [t, keys] of Object.entries(visitorKeys as unknown as Record<string, readonly string[]>))
  if (keys.length === 0) WALK_KIND.set(t, KIND.leaf);
// Later sets win, as the walk tries them in this order: functions, then signatures, then keyed members.
for (const t of MEMBER_KEYED) WALK_KIND.set(t, KIND.keyedMember);
for (const t of SIGNATURES) WALK_KIND.set(t, KIND.signature);
for (const t of FUNCTIONS) WALK_KIND.set(t, KIND.function);

/** `var` anywhere in a function body (outside nested functions) belongs to the function. */
export function collectVars(node: N | null | undefined, out: string[]): void {
  if (!node || FUNCTIONS.has(node.type) || node.type.startsWith("Class")) return;
  if (node.type === "VariableDeclaration") {
    if (node.kind === "var") for (const d of node.declarations ?? []) for (const id of patternNames(d.id)) out.push(id.name ?? "");
    return;
  }
  if (holdsStatements(node.type)) eachChild(node, collectVars, out);
}

const statementTypes = new Map<string, boolean>();
/** Whether a node of this type can hold a `var` of its function (a statement, a case, a catch clause). */
function holdsStatements(type: string): boolean {
  let yes = statementTypes.get(type);
  if (yes === undefined) {
    yes = /Statement$|^SwitchCase$|^CatchClause$/.test(type);
    statementTypes.set(type, yes);
  }
  return yes;
}

/** Block-level declarations of a statement list, hoisted before the walk (TDZ aside). */
export function hoist(statements: N[], scope: Scope, functionBody: boolean): void {
  for (const raw of statements) {
    const s = raw.type === "ExportNamedDeclaration" || raw.type === "ExportDefaultDeclaration" ? (raw.declaration ?? raw) : raw;
    if (s.type === "VariableDeclaration") {
      if (s.kind !== "var" || !functionBody) for (const d of s.declarations ?? []) for (const id of patternNames(d.id)) declare(scope, id);
    } else if (s.id && s.id.type === "Identifier" && (s.type.endsWith("Declaration") || s.type === "TSDeclareFunction")) {
      declare(scope, s.id);
    }
  }
  if (functionBody) {
    const vars: string[] = [];
    for (const s of statements) collectVars(s, vars);
    for (const v of vars) if (!scope.vars.has(v)) scope.vars.set(v, "local");
  }
}

/** Type parameters and JSX tags hold their name as a node, not a string. */
export function nodeName(node: N): N | undefined {
  return node.name as unknown as N | undefined;
}

export function declare(scope: Scope, id: N | null | undefined): void {
  if (id?.name && !scope.vars.has(id.name)) scope.vars.set(id.name, "local");
}

/**
 * The file's scope: the module's bindings, then every top-level `var` (also inside blocks) and
 * anything else not a module symbol as a local, which shadows nothing useful.
 */
export function rootScope(statements: readonly N[], moduleScope: Map<string, ModuleBinding>): Scope {
  const root: Scope = { vars: new Map(), parent: null, owner: null };
  for (const [k, v] of moduleScope) root.vars.set(k, v);
  const vars: string[] = [];
  for (const s of statements) collectVars(s, vars);
  for (const v of vars) if (!root.vars.has(v)) root.vars.set(v, "local");
  return root;
}
