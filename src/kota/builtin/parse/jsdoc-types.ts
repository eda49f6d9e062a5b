/**
 * Types a JavaScript file declares and imports in JSDoc, as TypeScript reads a .js file (checkJs /
 * allowJs): `@typedef {...} Name` and `@callback Name` declare a type of the module (exported, as a
 * module's typedefs are), `@import { A, B as C } from "./m"` imports types, and `import("./m").Name`
 * inside a type names m's export. TypeScript reads none of this in .ts files, so neither do we.
 * Runs before extractJsdocRefs (extract-jsdoc.ts), which then counts `{Name}` as a use of the typedef
 * or of the imported name.
 */
import type { Comment } from "./extract-jsdoc.ts";
import type { FactsBuilder, ModuleBinding } from "./facts.ts";

export const JS_FILE = /\.[cm]?jsx?$/;

const IDENT = "[A-Za-z_$][\\w$]*";
const CALLBACK = new RegExp(`@callback\\s+(${IDENT})`, "g");
const IMPORT_TAG = /@import\s+\{([^}]*)\}\s*from\s*(['"])([^'"\n]+)\2/g;
const IMPORT_TYPE = new RegExp(`import\\(\\s*(['"])([^'"\\n]+)\\1\\s*\\)\\s*\\.\\s*(${IDENT})`, "g");

/** The name after `@typedef` at `at` (just past the tag): an optional `{...}` type (braces may nest), then the name. */
function typedefName(text: string, at: number): { name: string; offset: number } | null {
  let i = at;
  while (/\s/.test(text[i] ?? "")) i++;
  if (text[i] === "{") {
    let depth = 0;
    for (; i < text.length; i++) {
      if (text[i] === "{") depth++;
      else if (text[i] === "}" && --depth === 0) break;
    }
    i++;
  }
  const m = new RegExp(`^[\\s*]*(${IDENT})`).exec(text.slice(i));
  return m ? { name: m[1]!, offset: i + m[0].length - m[1]!.length } : null;
}

export function declareJsdocTypes(b: FactsBuilder, comments: readonly Comment[], scope: Map<string, ModuleBinding>): void {
  const byModule = new Map<string, number>();
  const importOf = (specifier: string, offset: number): number => {
    let idx = byModule.get(specifier);
    if (idx === undefined) {
      idx = b.addImport(specifier, "type", offset);
      byModule.set(specifier, idx);
    }
    return idx;
  };
  const declare = (name: string, offset: number) => {
    if (scope.has(name)) return;
    scope.set(name, { importIdx: null, imported: null });
    const line = b.lines.line(offset);
    const start = b.lines.start(line);
    const end = b.source.indexOf("\n", start);
    const signature = b.source
      .slice(start, end === -1 ? undefined : end)
      .trim()
      .slice(0, 160);
    b.symbols.push({ name, kind: "type", parent: null, lineStart: line, lineEnd: line, exported: true, signature });
    b.exports.push({ name, local: name, importIdx: null, imported: null, line });
  };
  for (const c of comments) {
    if (c.type !== "Block" || !c.value.startsWith("*")) continue;
    const base = c.start + 2; // past "/*"
    const text = c.value;
    // A tag may run over lines ("@import {\n *   A,\n *   B\n * } from './m'"): each line's leading
    // `*` read as a space, as TypeScript's JSDoc scanner skips it (same length: offsets hold).
    const joined = text.replace(/(\n[ \t]*)\*/g, "$1 ");
    for (let at = text.indexOf("@typedef"); at !== -1; at = text.indexOf("@typedef", at + 8)) {
      const found = typedefName(text, at + 8);
      if (found) declare(found.name, base + found.offset);
    }
    for (const m of text.matchAll(CALLBACK)) declare(m[1]!, base + m.index! + m[0].length - m[1]!.length);
    for (const m of joined.matchAll(IMPORT_TAG)) {
      const idx = importOf(m[3]!, base + m.index!);
      for (const part of m[1]!.split(",")) {
        const names = /^\s*([A-Za-z_$][\w$]*)(?:\s+as\s+([A-Za-z_$][\w$]*))?\s*$/.exec(part);
        if (names && !scope.has(names[2] ?? names[1]!)) scope.set(names[2] ?? names[1]!, { importIdx: idx, imported: names[1]! });
      }
    }
    for (const m of joined.matchAll(IMPORT_TYPE)) {
      const idx = importOf(m[2]!, base + m.index!);
      b.addRef({ importIdx: idx, name: m[3]!, owner: null, member: false, kind: "type" }, base + m.index! + m[0].length - m[3]!.length);
    }
  }
}
