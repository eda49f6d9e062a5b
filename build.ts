/**
 * Builds, in order:
 *   dist/extension/  the pi extension:
 *     index.js               the file pi loads (and transpiles): a few lines that hand pi's own modules over
 *                            (transpiled only: it names pi's packages in dynamic imports that pi's loader maps)
 *     sidecar.cjs            the extension itself, loaded with the runtime's own require (Node)
 *     sidecar-bun.cjs        the same for Bun, with its bytecode (sidecar-bun.cjs.jsc): no parse at pi's start
 *     engine.cjs             the in-process engine (Bun only: bun:sqlite), loaded on first use, with its
 *                            bytecode (engine.cjs.jsc); Bun uses a .jsc only when it was made by the same
 *                            Bun version for the same source, and parses the source otherwise
 *     background-worker.js   indexing and token counting on a worker thread (Bun)
 *     tokenizer.cjs          the o200k tables, loaded only by what counts tokens
 *   dist/pi-sidecar  one executable (scripts/compile.ts): SQL, worker, tokenizer tables and the extension
 *                    files embedded; no dotenv/bunfig. `npm run release` builds it for every platform.
 * then smoke-runs `dist/pi-sidecar --version`. Any failure exits non-zero with the reason.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };
import { compileBinary } from "./scripts/compile.ts";

const OUTFILE = "dist/pi-sidecar";
const EXTENSION_DIR = "dist/extension";
/** What pi provides to its extensions (its own copies): never bundled, never resolved elsewhere. */
const PI_MODULES = ["typebox", "@sinclair/typebox", "@earendil-works/*", "@mariozechner/*"];
export const EXTENSION_FILES = [
  "index.js",
  "sidecar.cjs",
  "sidecar-bun.cjs",
  "sidecar-bun.cjs.jsc",
  "engine.cjs",
  "engine.cjs.jsc",
  "background-worker.js",
  "tokenizer.cjs",
] as const;

function check(result: Awaited<ReturnType<typeof Bun.build>>, what: string): void {
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`${what}: build failed, see the messages above`);
  }
}

type Bundle = {
  entry: string;
  name: (typeof EXTENSION_FILES)[number];
  target: "node" | "bun";
  format: "esm" | "cjs";
  external?: string[];
  /** Precompiled bytecode beside the bundle (`<name>.jsc`; Bun, CommonJS only). */
  bytecode?: boolean;
};

async function bundle(b: Bundle): Promise<void> {
  const result = await Bun.build({
    entrypoints: [b.entry],
    outdir: EXTENSION_DIR,
    naming: b.name,
    target: b.target,
    format: b.format,
    external: [...PI_MODULES, ...(b.external ?? [])],
    minify: { syntax: true, whitespace: true, identifiers: false },
    bytecode: b.bytecode ?? false,
  });
  check(result, b.name);
  // A text copy for the binary to embed (`install pi` writes these files out); the bytecode is
  // embedded as it is (not code the bundler could take for a module).
  copyFileSync(`${EXTENSION_DIR}/${b.name}`, `${EXTENSION_DIR}/${b.name}.txt`);
  if (b.bytecode && !existsSync(`${EXTENSION_DIR}/${b.name}.jsc`))
    throw new Error(`${b.name}: the build wrote no bytecode (${b.name}.jsc)`);
}

/**
 * index.js is transpiled, not bundled: it imports only node: builtins and names pi's packages in
 * dynamic imports, and the bundler would rename the `module` it checks for (see loader.ts).
 */
function transpileLoader(): void {
  const source = readFileSync("./src/surfaces/pi/loader.ts", "utf8");
  const out = new Bun.Transpiler({ loader: "ts", target: "node", minifyWhitespace: true }).transformSync(source);
  if (!/typeof module\s*!==\s*"object"/.test(out)) throw new Error("index.js: the transpiled loader lost its check for pi's loader");
  writeFileSync(`${EXTENSION_DIR}/index.js`, out);
  copyFileSync(`${EXTENSION_DIR}/index.js`, `${EXTENSION_DIR}/index.js.txt`);
}

export async function buildExtension(): Promise<void> {
  rmSync(EXTENSION_DIR, { recursive: true, force: true });
  mkdirSync(EXTENSION_DIR, { recursive: true });
  transpileLoader();
  // The tokenizer tables are a file of their own (tokenizer.cjs): the engine names it at run time.
  await bundle({
    entry: "./src/surfaces/pi/extension.ts",
    name: "sidecar.cjs",
    target: "node",
    format: "cjs",
    external: ["gpt-tokenizer"],
  });
  // The same extension for pi on Bun, which loads it from its bytecode instead of parsing ~850 KB.
  await bundle({
    entry: "./src/surfaces/pi/extension.ts",
    name: "sidecar-bun.cjs",
    target: "bun",
    format: "cjs",
    external: ["gpt-tokenizer"],
    bytecode: true,
  });
  await bundle({
    entry: "./src/surfaces/pi/in-process-engine.ts",
    name: "engine.cjs",
    target: "bun",
    format: "cjs",
    // oxc's native binding is required at run time from the package's node_modules (an optional
    // dependency per platform), not copied from this machine's: the engine runs on the user's.
    external: ["gpt-tokenizer", "@oxc-parser/*"],
    bytecode: true,
  });
  await bundle({
    entry: "./src/background-worker.ts",
    name: "background-worker.js",
    target: "bun",
    format: "esm",
    external: ["gpt-tokenizer"],
  });
  await bundle({ entry: "./src/tokens/tables.ts", name: "tokenizer.cjs", target: "node", format: "cjs" });
}

export async function build(outfile = OUTFILE): Promise<void> {
  await buildExtension();
  await compileBinary({ outfile });
  if (!existsSync(outfile)) throw new Error(`build reported success but ${outfile} is missing`);
  chmodSync(outfile, 0o755);
  const smoke = Bun.spawnSync([outfile, "--version"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PI_SIDECAR_DB: "" } });
  const printed = smoke.stdout.toString().trim();
  if (smoke.exitCode !== 0 || printed !== `pi-sidecar ${pkg.version}`) {
    throw new Error(`smoke run of ${outfile} --version failed (exit ${smoke.exitCode}): ${printed} ${smoke.stderr.toString()}`);
  }
  console.error(`built ${outfile} (${printed}) and ${EXTENSION_DIR}/`);
}

if (import.meta.main) {
  try {
    await build();
  } catch (error) {
    console.error(`build.ts: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
