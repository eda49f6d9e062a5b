/** One file's facts: parse, then the module pass and the reference walk. */
import type { N } from "./ast.ts";
import { extractJsdocRefs } from "./extract-jsdoc.ts";
import { extractModule } from "./extract-module.ts";
import { extractRefs } from "./extract-refs.ts";
import { type FileFacts, factsBuilder, type ImportKind } from "./facts.ts";
import { declareJsdocTypes, JS_FILE } from "./jsdoc-types.ts";
import { parseSource } from "./oxc-binding.ts";

export function extractFacts(path: string, source: string): FileFacts {
  const b = factsBuilder(source);
  // Only doc comments (`/** ... */`) hold JSDoc types: a file without one needs no comment list.
  const docs = source.includes("/**");
  const parsed = parseSource(path, source, { comments: docs });
  const first = parsed.errors[0];
  if (first) {
    const at = first.labels[0]?.start;
    b.error = { line: at === undefined ? 1 : b.lines.line(at), message: first.message };
  }
  if (parsed.program) {
    const scope = extractModule(b, parsed.program as unknown as N);
    extractRefs(b, parsed.program as unknown as N, scope);
    if (docs && JS_FILE.test(path)) declareJsdocTypes(b, parsed.comments, scope);
    if (docs) extractJsdocRefs(b, parsed.comments, scope);
  } else {
    // Unrecoverable syntax error: the parser's module record still lists imports and re-exports.
    salvageImports(b, parsed.module);
  }
  return { symbols: b.symbols, imports: b.imports, exports: b.exports, refs: b.refs, error: b.error };
}

type ModuleRecord = ReturnType<typeof parseSource>["module"];

function salvageImports(b: ReturnType<typeof factsBuilder>, module: ModuleRecord): void {
  const add = (spec: { value: string; start: number } | null, kind: ImportKind) => {
    if (spec) b.addImport(spec.value, kind, spec.start);
  };
  for (const imp of module.staticImports) add(imp.moduleRequest, "import");
  for (const exp of module.staticExports)
    for (const e of exp.entries) add(e.moduleRequest, e.importName.kind === "AllButDefault" ? "export_all" : "reexport");
  for (const d of module.dynamicImports) {
    const text = b.source.slice(d.moduleRequest.start, d.moduleRequest.end);
    const m = /^(["'`])([^"'`$]*)\1$/.exec(text);
    if (m) b.addImport(m[2]!, "dynamic", d.start);
  }
}
