/**
 * Loads oxc's native parser so that it also works inside `bun build --compile`: the bundler embeds
 * a `.node` addon only when `require()` names it with a literal string, and oxc-parser's own loader
 * builds its require calls at run time. So each platform's binding package is named here literally
 * (packages that are not installed stay unbundled and fail over to the next line); oxc-parser's
 * own entry is the last resort, for platforms not listed (it works when run from source).
 */
import type { Comment, EcmaScriptModule, OxcError, ParserOptions, Program } from "oxc-parser";
import { AppError, errorMessage } from "../../../errors.ts";
import { type RawBinding, type RawParser, rawParser } from "./oxc-raw.ts";

type JsonResult = { program: string; module: EcmaScriptModule; comments: Comment[]; errors: OxcError[] };
type Binding = RawBinding & { parseSync(filename: string, source: string, options: ParserOptions): JsonResult };

/**
 * `comments`: all of them when asked for (see parseSource), else possibly none. `module`: the module
 * record, complete for a file that did not parse without errors (the only one that reads it), else
 * possibly empty.
 */
export type Parsed = { program: Program | null; module: EcmaScriptModule; comments: Comment[]; errors: OxcError[] };

// Each require sits directly in a try block: the bundler then leaves a package that is not
// installed (another platform's binding) to fail at run time instead of failing the build.
/** This platform's native binding, or null (a platform not listed: oxc-parser's own loader is tried). */
export function loadBinding(): Binding | null {
  const { platform, arch } = process;
  if (platform === "linux" && arch === "x64") {
    try {
      return require("@oxc-parser/binding-linux-x64-gnu");
    } catch {
      // musl libc, or not installed
    }
    try {
      return require("@oxc-parser/binding-linux-x64-musl");
    } catch {
      // not installed
    }
  } else if (platform === "linux" && arch === "arm64") {
    try {
      return require("@oxc-parser/binding-linux-arm64-gnu");
    } catch {
      // musl libc, or not installed
    }
    try {
      return require("@oxc-parser/binding-linux-arm64-musl");
    } catch {
      // not installed
    }
  } else if (platform === "darwin" && arch === "arm64") {
    try {
      return require("@oxc-parser/binding-darwin-arm64");
    } catch {
      // not installed
    }
  } else if (platform === "darwin" && arch === "x64") {
    try {
      return require("@oxc-parser/binding-darwin-x64");
    } catch {
      // not installed
    }
  } else if (platform === "win32" && arch === "x64") {
    try {
      return require("@oxc-parser/binding-win32-x64-msvc");
    } catch {
      // not installed
    }
  }
  return null;
}

let binding: Binding | null | undefined;
let raw: RawParser | null | undefined;
let fallback: ((filename: string, source: string, options: ParserOptions) => Parsed) | undefined;

const OPTIONS: ParserOptions = { preserveParens: false };
/** Sources longer than this (in UTF-16 units) go through JSON: raw transfer reserves 3 bytes a unit for them. */
const RAW_MAX_LENGTH = 64 * 1024 * 1024;

/**
 * Loads the native binding and takes raw transfer's buffer now rather than at the first file (a
 * parser process does it while its first request is still on the way: a compiled binary writes the
 * addon out to a temporary file first). A failure is left to the first parse to report.
 */
export function preloadParser(): void {
  try {
    if (binding === undefined) binding = loadBinding();
    if (binding && raw === undefined) raw = rawParser(binding);
  } catch {
    // parseSource tries again and says why
  }
}

/**
 * The tree of a small file (a bundler config the resolver reads, up to 64 KiB), through JSON: the
 * raw-transfer buffer is not reserved for it. Null when it does not parse or no binding loads.
 */
export function parseSmallProgram(filename: string, source: string): Program | null {
  if (source.length > 64 * 1024) return null;
  if (binding === undefined) binding = loadBinding();
  if (!binding) return null;
  try {
    const json = binding.parseSync(filename, source, OPTIONS);
    if (json.errors.length > 0) return null;
    return (JSON.parse(json.program) as { node: Program }).node;
  } catch {
    // A config the parser cannot read names no entries: the index goes on without them.
    return null;
  }
}

/**
 * Parses one file. A file with syntax errors still returns its module record (imports and exports
 * survive), its errors, and no program when the parser could not recover one. The tree comes by raw
 * transfer where that works (oxc-raw.ts), else as JSON: the same tree either way.
 */
export function parseSource(filename: string, source: string, want: { comments: boolean } = { comments: true }): Parsed {
  if (binding === undefined) binding = loadBinding();
  if (binding) {
    if (raw === undefined) raw = rawParser(binding);
    if (raw && source.length <= RAW_MAX_LENGTH) {
      const r = raw(filename, source, OPTIONS, want);
      return { ...r, program: r.errors.length > 0 && r.program.body.length === 0 ? null : r.program };
    }
    const json = binding.parseSync(filename, source, OPTIONS);
    const errors = json.errors;
    const program = (JSON.parse(json.program) as { node: Program }).node;
    // The module record and the comments are built by their getters: read only when needed (a file
    // that did not parse, a file with doc comments).
    return {
      program: errors.length > 0 && program.body.length === 0 ? null : program,
      get module() {
        return json.module;
      },
      get comments() {
        return json.comments;
      },
      errors,
    };
  }
  if (!fallback) {
    try {
      const oxc = require("oxc-parser") as { parseSync(f: string, s: string, o: ParserOptions): Parsed };
      fallback = (f, s, o) => {
        const r = oxc.parseSync(f, s, o);
        return { program: r.program, module: r.module, comments: r.comments, errors: r.errors };
      };
    } catch (error) {
      throw new AppError(
        "PARSER_UNAVAILABLE",
        `The TypeScript/JavaScript parser (oxc-parser) has no native binding for ${process.platform}-${process.arch}: ${errorMessage(error)}. ` +
          "Use the kotadb backend (kota.backend: kotadb) on this platform.",
      );
    }
  }
  return fallback(filename, source, OPTIONS);
}
