/**
 * Compiles dist/pi-sidecar: one executable with the SQL embedded and no dotenv/bunfig
 * autoloading, then smoke-runs `--version`. Any failure exits non-zero with the reason.
 */
import { chmodSync, existsSync, mkdirSync } from "node:fs";
import pkg from "./package.json" with { type: "json" };

const OUTFILE = "dist/pi-sidecar";

export async function build(outfile = OUTFILE): Promise<void> {
  mkdirSync("dist", { recursive: true });
  const result = await Bun.build({
    // The token-counting worker is a second entry point so the binary carries it.
    entrypoints: ["./src/main.ts", "./src/store/token-worker.ts"],
    compile: { outfile, autoloadDotenv: false, autoloadBunfig: false },
    // Entry points land in the embedded file system relative to their common folder (src/).
    define: { PI_SIDECAR_TOKEN_WORKER: JSON.stringify("/$bunfs/root/store/token-worker.js") },
    minify: true,
    sourcemap: "linked",
    target: "bun",
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error("build failed: see the messages above");
  }
  if (!existsSync(outfile)) throw new Error(`build reported success but ${outfile} is missing`);
  chmodSync(outfile, 0o755);
  const smoke = Bun.spawnSync([outfile, "--version"], { stdout: "pipe", stderr: "pipe", env: { ...process.env, PI_SIDECAR_DB: "" } });
  const printed = smoke.stdout.toString().trim();
  if (smoke.exitCode !== 0 || printed !== `pi-sidecar ${pkg.version}`) {
    throw new Error(`smoke run of ${outfile} --version failed (exit ${smoke.exitCode}): ${printed} ${smoke.stderr.toString()}`);
  }
  console.error(`built ${outfile} (${printed})`);
}

if (import.meta.main) {
  try {
    await build();
  } catch (error) {
    console.error(`build.ts: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
