/**
 * Type references inside JSDoc (`@param {ErrorHandler<E>} x`, `{@link compose}`, `@see Hono`):
 * TypeScript reads them in .ts and .js files alike and counts them as references. Names resolve
 * at module level only, which is where JSDoc types almost always come from.
 */
import type { FactsBuilder, ModuleBinding } from "./facts.ts";

export type Comment = { type: string; value: string; start: number };

const BRACES = /\{([^{}]*)\}/g;
const SEE = /@see\s+([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)/g;
const NAME = /[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*/g;
const STRINGS = /'[^']*'|"[^"]*"|`[^`]*`/g;
const EXAMPLE = /@example[\s\S]*?(?=\n\s*\*\s*@|$)/g;
const FENCE = /```[\s\S]*?(?:```|$)/g;
const blank = (s: string) => s.replace(/[^\n]/g, " ");

export function extractJsdocRefs(b: FactsBuilder, comments: readonly Comment[], scope: Map<string, ModuleBinding>): void {
  const refer = (chain: string, offset: number) => {
    const dot = chain.indexOf(".");
    const head = dot === -1 ? chain : chain.slice(0, dot);
    const binding = scope.get(head);
    if (!binding) return;
    if (binding.importIdx === null) b.addRef({ importIdx: null, name: head, owner: null, member: false, kind: "type" }, offset);
    else if (binding.imported !== "*")
      b.addRef({ importIdx: binding.importIdx, name: binding.imported, owner: null, member: false, kind: "type" }, offset);
    else if (dot !== -1) {
      const member = chain.slice(dot + 1).split(".")[0]!;
      b.addRef({ importIdx: binding.importIdx, name: member, owner: null, member: false, kind: "type" }, offset + dot + 1);
    }
  };
  for (const c of comments) {
    if (c.type !== "Block" || !c.value.startsWith("*")) continue;
    const base = c.start + 2; // past "/*"
    // Example code and fenced blocks are prose to TypeScript, not types: blank them, keeping offsets.
    const value = c.value.replace(EXAMPLE, blank).replace(FENCE, blank);
    for (const m of value.matchAll(BRACES)) {
      const inner = m[1]!;
      const at = base + m.index! + 1;
      const link = /^@link(?:code|plain)?\s+([A-Za-z_$][\w$.]*)/.exec(inner);
      if (link) {
        refer(link[1]!, at + inner.indexOf(link[1]!));
        continue;
      }
      if (inner.startsWith("@")) continue;
      const text = inner.replace(STRINGS, (s) => " ".repeat(s.length));
      for (const n of text.matchAll(NAME)) {
        const before = text[n.index! - 1];
        const after = text.slice(n.index! + n[0].length).trimStart();
        // `{ a: T }` keys and `x.y` tails are not references.
        if (before === "." || after.startsWith(":") || after.startsWith("?:")) continue;
        refer(n[0], at + n.index!);
      }
    }
    for (const m of value.matchAll(SEE)) refer(m[1]!, base + m.index! + m[0].length - m[1]!.length);
  }
}
