/**
 * The module-level pass over one file: imports, exports and symbols (top-level declarations and
 * the members of classes and interfaces), and the module scope the reference walk starts from.
 */

import type { SymbolKind } from "../../contract.ts";
import { bodyList, literalString, type N, nameOf, patternNames } from "./ast.ts";
import type { ExportFact, FactsBuilder, ImportKind, ModuleBinding, SymbolFact } from "./facts.ts";

const TOP: ModuleBinding = { importIdx: null, imported: null };

function signatureOf(b: FactsBuilder, start: number): string {
  const nl = b.source.indexOf("\n", start);
  const line = b.source.slice(start, nl === -1 ? undefined : nl).trim();
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function isFunctionLike(node: N | null | undefined): boolean {
  return !!node && (node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression");
}

function addSymbol(b: FactsBuilder, name: string, kind: SymbolKind, node: N, outer: N, exported: boolean, parent: string | null): void {
  b.symbols.push({
    name,
    kind,
    parent,
    lineStart: b.lines.line(outer.start),
    lineEnd: b.lines.line(node.end),
    exported,
    signature: signatureOf(b, outer.start),
  });
}

function classMembers(b: FactsBuilder, cls: N, owner: string, exported: boolean): void {
  const body = cls.body as N | null;
  for (const m of bodyList(body)) {
    const name = m.computed ? null : nameOf(m.key);
    if (m.type === "MethodDefinition" || m.type === "TSAbstractMethodDefinition") {
      if (m.kind === "constructor") {
        // `constructor(private x: X)` declares a property.
        for (const p of ((m.value as N | undefined)?.params ?? []) as N[]) {
          if (p.type !== "TSParameterProperty") continue;
          for (const id of patternNames(p)) addSymbol(b, id.name ?? "", "property", p, p, exported, owner);
        }
        continue;
      }
      if (name) addSymbol(b, name, m.kind === "get" || m.kind === "set" ? "property" : "method", m, m, exported, owner);
    } else if (/^(PropertyDefinition|AccessorProperty|TSAbstractPropertyDefinition|TSAbstractAccessorProperty)$/.test(m.type)) {
      if (name) addSymbol(b, name, isFunctionLike(m.value as N) ? "method" : "property", m, m, exported, owner);
    }
  }
}

function interfaceMembers(b: FactsBuilder, iface: N, owner: string, exported: boolean): void {
  for (const m of bodyList(iface.body as N)) {
    const name = m.computed ? null : nameOf(m.key);
    if (!name) continue;
    if (m.type === "TSPropertySignature") addSymbol(b, name, isFunctionType(m) ? "method" : "property", m, m, exported, owner);
    else if (m.type === "TSMethodSignature") addSymbol(b, name, "method", m, m, exported, owner);
  }
}

function isFunctionType(sig: N): boolean {
  const t = (sig.typeAnnotation as N | null)?.typeAnnotation as N | undefined;
  return t?.type === "TSFunctionType";
}

/** Declares the symbols of one declaration; returns the names it binds at module level. */
function declare(b: FactsBuilder, decl: N, outer: N, exported: boolean, scope: Map<string, ModuleBinding>): string[] {
  const id = nameOf(decl.id);
  const bind = (name: string) => {
    if (!scope.has(name)) scope.set(name, TOP);
    return name;
  };
  switch (decl.type) {
    case "FunctionDeclaration":
    case "TSDeclareFunction":
      if (!id) return [];
      addSymbol(b, id, "function", decl, outer, exported, null);
      return [bind(id)];
    case "ClassDeclaration":
      if (!id) return [];
      addSymbol(b, id, "class", decl, outer, exported, null);
      classMembers(b, decl, id, exported);
      return [bind(id)];
    case "TSInterfaceDeclaration":
      if (!id) return [];
      addSymbol(b, id, "interface", decl, outer, exported, null);
      interfaceMembers(b, decl, id, exported);
      return [bind(id)];
    case "TSTypeAliasDeclaration":
      if (!id) return [];
      addSymbol(b, id, "type", decl, outer, exported, null);
      return [bind(id)];
    case "TSEnumDeclaration":
      if (!id) return [];
      addSymbol(b, id, "enum", decl, outer, exported, null);
      return [bind(id)];
    case "TSModuleDeclaration":
      // `declare module "x"` and `declare global` augment other modules; only namespaces are symbols here.
      if (!id || decl.id?.type !== "Identifier") return [];
      addSymbol(b, id, "namespace", decl, outer, exported, null);
      return [bind(id)];
    case "VariableDeclaration": {
      const names: string[] = [];
      for (const d of decl.declarations ?? []) {
        const init = d.init;
        const kind: SymbolKind = isFunctionLike(init)
          ? "function"
          : init?.type === "ClassExpression"
            ? "class"
            : decl.kind === "const"
              ? "const"
              : "variable";
        for (const n of patternNames(d.id)) {
          if (!n.name) continue;
          addSymbol(b, n.name, kind, d, decl.declarations?.length === 1 ? outer : d, exported, null);
          if (init?.type === "ClassExpression") classMembers(b, init, n.name, exported);
          names.push(bind(n.name));
        }
      }
      return names;
    }
    default:
      return [];
  }
}

function importKindOf(node: N): ImportKind {
  return node.importKind === "type" ? "type" : "import";
}

function exportLocal(scope: Map<string, ModuleBinding>, name: string, local: string, line: number): ExportFact {
  const binding = scope.get(local);
  if (binding && binding.importIdx !== null) return { name, local: null, importIdx: binding.importIdx, imported: binding.imported, line };
  return { name, local, importIdx: null, imported: null, line };
}

/** Whether top-level statements make the file a module (an import or export), not a global script. */
export function isModuleFile(statements: readonly N[]): boolean {
  return statements.some((s) => /^(Import|Export)|^TS(ExportAssignment|ImportEqualsDeclaration)$/.test(s.type));
}

/**
 * Which top-level statements are ambient module blocks (`declare module "x" { ... }`) of a global
 * script, whose imports are the file's own; in a module file such a block is an augmentation. The
 * file's kind is worked out only when such a block is asked about.
 */
export function ambientModuleTest(statements: readonly N[]): (s: N) => boolean {
  let script: boolean | undefined;
  return (s) => {
    if (s.type !== "TSModuleDeclaration" || s.id?.type !== "Literal") return false;
    script ??= !isModuleFile(statements);
    return script;
  };
}

/**
 * An import statement (`import ... from`, `import x = require(...)`): adds the import and the
 * references its specifiers make, and binds its local names in `scope`. Other statements: nothing.
 */
export function bindImport(b: FactsBuilder, s: N, scope: Map<string, ModuleBinding>): void {
  if (s.type === "ImportDeclaration") {
    const spec = literalString(s.source);
    if (spec === null) return;
    const importIdx = b.addImport(spec, importKindOf(s), s.start);
    for (const sp of s.specifiers ?? []) {
      const local = sp.local?.name;
      if (!local) continue;
      if (sp.type === "ImportNamespaceSpecifier") scope.set(local, { importIdx, imported: "*" });
      else if (sp.type === "ImportDefaultSpecifier") {
        scope.set(local, { importIdx, imported: "default" });
        b.addRef({ importIdx, name: "default", owner: null, member: false, kind: "import" }, sp.start);
      } else {
        const imported = nameOf(sp.imported) ?? local;
        scope.set(local, { importIdx, imported });
        b.addRef({ importIdx, name: imported, owner: null, member: false, kind: "import" }, (sp.imported ?? sp).start);
        // `import { a as b }`: TypeScript counts the new name as a reference to `a` too.
        if (sp.local && sp.imported && sp.local.start !== sp.imported.start) {
          b.addRef({ importIdx, name: imported, owner: null, member: false, kind: "import" }, sp.local.start);
        }
      }
    }
  } else if (s.type === "TSImportEqualsDeclaration" && (s.moduleReference as N)?.type === "TSExternalModuleReference") {
    const spec = literalString((s.moduleReference as N).expression);
    const local = nameOf(s.id);
    if (spec === null || !local) return;
    scope.set(local, { importIdx: b.addImport(spec, "import", s.start), imported: "*" });
  }
}

/**
 * Fills imports, exports and symbols of `b` from the program's top-level statements and returns
 * the module scope: every import binding and top-level declaration by local name.
 */
export function extractModule(b: FactsBuilder, program: N): Map<string, ModuleBinding> {
  const scope = new Map<string, ModuleBinding>();
  const statements = bodyList(program);
  // Imports first: `export { x }` may come before the `import { x }` it re-exports.
  for (const s of statements) bindImport(b, s, scope);
  const localExports: { name: string; local: string; line: number }[] = [];
  const isModule = isModuleFile(statements);
  for (const s of statements) {
    const line = b.lines.line(s.start);
    switch (s.type) {
      case "ExportNamedDeclaration": {
        const spec = literalString(s.source);
        if (spec !== null) {
          const importIdx = b.addImport(spec, "reexport", s.start);
          for (const sp of s.specifiers ?? []) {
            const imported = nameOf(sp.local);
            if (!imported) continue;
            b.exports.push({ name: nameOf(sp.exported) ?? imported, local: null, importIdx, imported, line });
            b.addRef({ importIdx, name: imported, owner: null, member: false, kind: "reexport" }, (sp.local as N).start);
            if (sp.exported && sp.local && sp.exported.start !== sp.local.start) {
              b.addRef({ importIdx, name: imported, owner: null, member: false, kind: "reexport" }, sp.exported.start);
            }
          }
        } else if (s.declaration) {
          for (const name of declare(b, s.declaration, s, true, scope)) localExports.push({ name, local: name, line });
        } else {
          for (const sp of s.specifiers ?? []) {
            const local = nameOf(sp.local);
            if (local) localExports.push({ name: nameOf(sp.exported) ?? local, local, line });
          }
        }
        break;
      }
      case "ExportAllDeclaration": {
        const spec = literalString(s.source);
        if (spec === null) break;
        const importIdx = b.addImport(spec, "export_all", s.start);
        b.exports.push({ name: nameOf(s.exported) ?? "*", local: null, importIdx, imported: "*", line });
        break;
      }
      case "ExportDefaultDeclaration":
      case "TSExportAssignment": {
        const d = (s.declaration ?? s.expression) as N;
        if (d.type === "Identifier" && d.name) {
          localExports.push({ name: "default", local: d.name, line });
        } else {
          const named = declare(b, d, s, true, scope);
          if (named.length > 0) localExports.push({ name: "default", local: named[0]!, line });
          else {
            const kind: SymbolKind =
              d.type === "ClassDeclaration" || d.type === "ClassExpression" ? "class" : /Function/.test(d.type) ? "function" : "const";
            addSymbol(b, "default", kind, d, s, true, null);
            if (kind === "class") classMembers(b, d, "default", true);
            b.exports.push({ name: "default", local: "default", importIdx: null, imported: null, line });
          }
        }
        break;
      }
      case "ImportDeclaration":
      case "TSImportEqualsDeclaration":
        break;
      case "TSModuleDeclaration": {
        // `declare module "../x" { ... }` in a module augments that module: TypeScript resolves it like an import.
        const spec = s.id?.type === "Literal" ? literalString(s.id) : null;
        if (spec !== null && isModule) b.addImport(spec, "type", s.start);
        else declare(b, s, s, false, scope);
        break;
      }
      default:
        declare(b, s, s, false, scope);
    }
  }
  const exportedLocals = new Set<string>();
  for (const e of localExports) {
    b.exports.push(exportLocal(scope, e.name, e.local, e.line));
    exportedLocals.add(e.local);
  }
  for (const sym of b.symbols) if (!sym.exported && sym.parent === null && exportedLocals.has(sym.name)) sym.exported = true;
  for (const sym of b.symbols) if (!sym.exported && sym.parent !== null && exportedLocals.has(sym.parent)) sym.exported = true;
  mergeOverloads(b);
  return scope;
}

/** Overload signatures and their implementation are one symbol spanning all of them. */
function mergeOverloads(b: FactsBuilder): void {
  const seen = new Map<string, SymbolFact>();
  const out: SymbolFact[] = [];
  for (const sym of b.symbols) {
    const key = `${sym.parent ?? ""}\0${sym.name}\0${sym.kind}`;
    const first = seen.get(key);
    if (first) {
      first.lineStart = Math.min(first.lineStart, sym.lineStart);
      first.lineEnd = Math.max(first.lineEnd, sym.lineEnd);
      first.exported ||= sym.exported;
      continue;
    }
    seen.set(key, sym);
    out.push(sym);
  }
  b.symbols = out;
}
