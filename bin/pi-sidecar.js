#!/usr/bin/env node
/**
 * The `pi-sidecar` command npm installs: runs the compiled binary for this machine. npm installed
 * it from this platform's package (pi-sidecar-<os>-<arch>, an optional dependency that only this
 * os and cpu accept); in a source checkout it is dist/pi-sidecar. No download, no postinstall.
 * The table below is src/platforms.ts's (test/npm/launcher.test.ts keeps them equal).
 */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const PLATFORMS = {
  "linux x64": "linux-x64",
  "linux arm64": "linux-arm64",
  "darwin x64": "darwin-x64",
  "darwin arm64": "darwin-arm64",
  "win32 x64": "windows-x64",
};

function findBinary() {
  const name = PLATFORMS[`${process.platform} ${process.arch}`];
  const shipped = [...new Set(Object.values(PLATFORMS))].join(", ");
  if (!name) {
    return {
      error:
        `pi-sidecar has no binary for ${process.platform}-${process.arch} (it ships ${shipped}). ` +
        "Build one from a checkout with Bun: npm install && npm run build (README: Install from source).",
    };
  }
  const file = name.startsWith("windows") ? "pi-sidecar.exe" : "pi-sidecar";
  const pkg = `pi-sidecar-${name}`;
  try {
    const bin = join(dirname(createRequire(import.meta.url).resolve(`${pkg}/package.json`)), "bin", file);
    if (existsSync(bin)) return { bin };
  } catch {
    // not installed: a checkout, or npm skipped optional dependencies
  }
  const checkout = join(dirname(fileURLToPath(import.meta.url)), "..", "dist", file);
  if (existsSync(checkout)) return { bin: checkout };
  return {
    error:
      `pi-sidecar: the binary for ${name} is missing: npm did not install the optional dependency ${pkg}. ` +
      `Reinstall without --omit=optional / --no-optional (or run: npm install ${pkg}), ` +
      `or download the ${pkg} binary from the release (README: Install).`,
  };
}

const found = findBinary();
if (!found.bin) {
  process.stderr.write(`${found.error}\n`);
  process.exit(1);
}

const child = spawn(found.bin, process.argv.slice(2), { stdio: "inherit", windowsHide: false });
// A terminal's Ctrl-C reaches the binary itself (same process group): stay alive until it exits.
process.on("SIGINT", () => {});
for (const signal of ["SIGTERM", "SIGHUP"]) {
  process.on(signal, () => {
    if (child.exitCode === null) child.kill(signal);
  });
}
child.on("error", (error) => {
  process.stderr.write(`pi-sidecar: could not run ${found.bin}: ${error.message}\n`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
