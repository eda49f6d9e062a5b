/**
 * Builds, in order:
 *   dist/extension/{index,engine,token-worker}.js  the pi extension (index.js runs under Node or
 *                                                  Bun; engine.js is the in-process engine, Bun only)
 *   dist/pi-sidecar                                one executable: SQL, token worker and the extension
 *                                                  files embedded; no dotenv/bunfig autoloading
 * then smoke-runs `dist/pi-sidecar --version`. Any failure exits non-zero with the reason.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };

const OUTFILE = "dist/pi-sidecar";
const EXTENSION_DIR = "dist/extension";

function check(result: Awaited<ReturnType<typeof Bun.build>>, what: string): void {
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`${what}: build failed, see the messages above`);
  }
}

async function bundle(
  entry: string,
  name: string,
  target: "node" | "bun",
  define: Record<string, string> = {},
  format: "esm" | "cjs" = "esm",
): Promise<void> {
  const result = await Bun.build({
    entrypoints: [entry],
    outdir: EXTENSION_DIR,
    naming: name,
    target,
    format,
    // pi provides these to its extensions (its own copies).
    external: ["typebox", "@sinclair/typebox", "@earendil-works/*", "@mariozechner/*"],
    define,
  });
  check(result, name);
  // A text copy for the binary to embed (`install pi` writes these files out).
  copyFileSync(`${EXTENSION_DIR}/${name}`, `${EXTENSION_DIR}/${name}.txt`);
}

export async function buildExtension(): Promise<void> {
  mkdirSync(EXTENSION_DIR, { recursive: true });
  await bundle("./src/surfaces/pi/extension.ts", "index.js", "node");
  // CommonJS, so the extension can load it with the runtime's own require instead of jiti.
  await bundle(
    "./src/surfaces/pi/in-process-engine.ts",
    "engine.js",
    "bun",
    { PI_SIDECAR_TOKEN_WORKER: JSON.stringify("./token-worker.js") },
    "cjs",
  );
  await bundle("./src/tokens/worker.ts", "token-worker.js", "bun");
}

export async function build(outfile = OUTFILE): Promise<void> {
  await buildExtension();
  const result = await Bun.build({
    // The token-counting worker is a second entry point so the binary carries it.
    entrypoints: ["./src/main.ts", "./src/tokens/worker.ts"],
    compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
    // Entry points land in the embedded file system relative to their common folder (src/).
    define: { PI_SIDECAR_TOKEN_WORKER: JSON.stringify("/$bunfs/root/tokens/worker.js") },
    minify: true,
    sourcemap: "linked",
    target: "bun",
  });
  check(result, outfile);
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
