/**
 * The ground truth the built-in index is measured against: TypeScript itself. Module resolution by
 * ts.resolveModuleName for every import ts.preProcessFile finds, and references by the language
 * service's findReferences. Paths are repo-relative, lines and columns 1-based.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import ts from "typescript";

export type Site = { file: string; line: number; column: number };

const BASE_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowJs: true,
  resolveJsonModule: true,
  allowImportingTsExtensions: true,
  jsx: ts.JsxEmit.ReactJSX,
  noEmit: true,
  skipLibCheck: true,
  types: [],
};

/** Compiler options of the nearest tsconfig.json above a file, with bundler resolution when it sets none. */
function optionsFinder(root: string): (file: string) => ts.CompilerOptions {
  const cache = new Map<string, ts.CompilerOptions>();
  return (file) => {
    let dir = dirname(join(root, file));
    for (;;) {
      const config = join(dir, "tsconfig.json");
      if (existsSync(config)) {
        let options = cache.get(config);
        if (!options) {
          const parsed = ts.getParsedCommandLineOfConfigFile(config, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
          options = { ...BASE_OPTIONS, ...(parsed?.options ?? {}) };
          if (!parsed?.options.moduleResolution) options.moduleResolution = ts.ModuleResolutionKind.Bundler;
          options.noEmit = true;
          cache.set(config, options);
        }
        return options;
      }
      if (dir === root || dirname(dir) === dir) return BASE_OPTIONS;
      dir = dirname(dir);
    }
  };
}

/** Every file's resolved imports that land on one of `files` (repo-relative): the oracle's import graph. */
export function tsImportGraph(root: string, files: readonly string[]): Map<string, Set<string>> {
  const known = new Set(files);
  const optionsFor = optionsFinder(root);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const abs = join(root, file);
    const info = ts.preProcessFile(readFileSync(abs, "utf8"), true, true);
    const out = new Set<string>();
    for (const imp of info.importedFiles) {
      const r = ts.resolveModuleName(imp.fileName, abs, optionsFor(file), ts.sys).resolvedModule;
      if (!r) continue;
      const rel = relative(root, r.resolvedFileName).replace(/\\/g, "/");
      if (known.has(rel) && rel !== file) out.add(rel);
    }
    graph.set(file, out);
  }
  return graph;
}

/** A language service over `files`, to ask findReferences. */
export function tsReferenceFinder(root: string, files: readonly string[]) {
  const abs = files.map((f) => join(root, f));
  const versions = new Map(abs.map((f) => [f, "1"]));
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => abs,
    getScriptVersion: (f) => versions.get(f) ?? "1",
    getScriptSnapshot: (f) => (existsSync(f) ? ts.ScriptSnapshot.fromString(readFileSync(f, "utf8")) : undefined),
    getCurrentDirectory: () => root,
    getCompilationSettings: () => ({ ...BASE_OPTIONS, jsxImportSource: "hono/jsx" }),
    getDefaultLibFileName: (o) => ts.getDefaultLibFilePath(o),
    fileExists: ts.sys.fileExists,
    readFile: ts.sys.readFile,
    readDirectory: ts.sys.readDirectory,
    directoryExists: ts.sys.directoryExists,
    getDirectories: ts.sys.getDirectories,
  };
  const service = ts.createLanguageService(host, ts.createDocumentRegistry());
  const site = (fileName: string, start: number): Site | null => {
    const sf = service.getProgram()?.getSourceFile(fileName);
    if (!sf) return null;
    const lc = sf.getLineAndCharacterOfPosition(start);
    return { file: relative(root, fileName).replace(/\\/g, "/"), line: lc.line + 1, column: lc.character + 1 };
  };
  return {
    /** The position of the name of the top-level declaration `name` in `file`, or null. */
    declarationOf(file: string, name: string): number | null {
      const sf = service.getProgram()?.getSourceFile(join(root, file));
      if (!sf) return null;
      for (const st of sf.statements) {
        const named = (n: ts.Node): number | null => {
          const id = (n as { name?: ts.Node }).name;
          return id && ts.isIdentifier(id) && id.text === name ? id.getStart(sf) : null;
        };
        if (ts.isVariableStatement(st)) {
          for (const d of st.declarationList.declarations) {
            const p = named(d);
            if (p !== null) return p;
          }
        } else {
          const p = named(st);
          if (p !== null) return p;
        }
      }
      return null;
    },
    /** Every reference to the symbol at `position` (definitions left out), in files of the repository. */
    references(file: string, position: number): Site[] {
      const out: Site[] = [];
      for (const group of service.findReferences(join(root, file), position) ?? []) {
        for (const ref of group.references) {
          if (ref.isDefinition) continue;
          const s = site(ref.fileName, ref.textSpan.start);
          if (s && !s.file.startsWith("..") && !s.file.includes("node_modules")) out.push(s);
        }
      }
      return out;
    },
  };
}
