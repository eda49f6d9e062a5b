/**
 * Compiles the one executable (build.ts for this machine, scripts/release.ts for every platform):
 * src/main.ts with the background worker and the tokenizer tables as entry points of their own,
 * so the binary carries each once (the main thread and the worker both load the tables' module
 * from the embedded file system); bytecode for a fast start; no source map, .env or bunfig; oxc's
 * AST deserializers with their one-line helpers inlined (scripts/inline-deserializer.ts).
 */
import { join } from "node:path";
import type { BunPlugin } from "bun";
import { inlineDeserializerPlugin } from "./inline-deserializer.ts";

const ROOT = join(import.meta.dir, "..");

export type CompileOptions = {
  outfile: string;
  /** Bun's cross-compile target (bun-linux-arm64, ...); this machine's when absent. */
  target?: Bun.Build.CompileTarget;
  /** The Bun runtime to embed (a `bun` executable for `target`); Bun downloads one when absent. */
  executablePath?: string;
  plugins?: BunPlugin[];
};

/** Where entry points land inside a compiled binary (relative to their common folder, src/). */
export function embeddedRoot(target?: string): string {
  const windows = target ? target.startsWith("bun-windows") : process.platform === "win32";
  return windows ? "B:/~BUN/root/" : "/$bunfs/root/";
}

export async function compileBinary(o: CompileOptions): Promise<void> {
  const root = embeddedRoot(o.target);
  const result = await Bun.build({
    entrypoints: ["src/main.ts", "src/background-worker.ts", "src/tokens/tables.ts"].map((p) => join(ROOT, p)),
    compile: {
      outfile: o.outfile,
      ...(o.target ? { target: o.target } : {}),
      ...(o.executablePath ? { executablePath: o.executablePath } : {}),
      autoloadDotenv: false,
      autoloadBunfig: false,
    },
    define: {
      PI_SIDECAR_WORKER: JSON.stringify(`${root}background-worker.js`),
      PI_SIDECAR_TOKENIZER: JSON.stringify(`${root}tokens/tables.js`),
      // Where the binary's own code is (the bundler fixes __dirname to the build machine's folder).
      PI_SIDECAR_EMBEDDED_ROOT: JSON.stringify(root),
    },
    minify: true,
    sourcemap: "none",
    target: "bun",
    // Precompiled bytecode: no parse of the whole bundle at every start (needs CommonJS, so no top-level await).
    bytecode: true,
    format: "cjs",
    // oxc's AST deserializers with their one-line helpers inlined (scripts/inline-deserializer.ts).
    plugins: [inlineDeserializerPlugin(), ...(o.plugins ?? [])],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`${o.outfile}: build failed, see the messages above`);
  }
}
