/**
 * Writes one platform's npm package (dist/npm/pi-sidecar-<os>-<arch>/): its binary in bin/, and a
 * package.json whose `os`/`cpu` (and `libc` on Linux: the binaries need glibc) let npm install it
 * only where it runs. `pi-sidecar` lists each as an optional dependency at its own version.
 */
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import pkg from "../package.json" with { type: "json" };
import { binaryFile, type PlatformName, platformPackage } from "../src/platforms.ts";

const ROOT = join(import.meta.dir, "..");

const NPM_FIELDS: Record<PlatformName, { os: string; cpu: string; libc?: string }> = {
  "linux-x64": { os: "linux", cpu: "x64", libc: "glibc" },
  "linux-arm64": { os: "linux", cpu: "arm64", libc: "glibc" },
  "darwin-x64": { os: "darwin", cpu: "x64" },
  "darwin-arm64": { os: "darwin", cpu: "arm64" },
  "windows-x64": { os: "win32", cpu: "x64" },
};

/** The package.json of `name`'s platform package at `version`. */
export function platformManifest(name: PlatformName, version: string = pkg.version): Record<string, unknown> {
  const { os, cpu, libc } = NPM_FIELDS[name];
  return {
    name: platformPackage(name),
    version,
    description: `The ${name} binary of pi-sidecar; install pi-sidecar, which picks it.`,
    license: pkg.license,
    homepage: "https://www.npmjs.com/package/pi-sidecar",
    os: [os],
    cpu: [cpu],
    ...(libc ? { libc: [libc] } : {}),
    files: ["bin/"],
    preferUnplugged: true,
  };
}

/** Writes `name`'s package into `outDir` (replacing it) with `binary` as its bin/ executable; returns the folder. */
export function writePlatformPackage(name: PlatformName, binary: string, outDir: string, version: string = pkg.version): string {
  const dir = join(outDir, platformPackage(name));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "bin"), { recursive: true });
  const target = join(dir, "bin", binaryFile(name));
  copyFileSync(binary, target);
  chmodSync(target, 0o755);
  copyFileSync(join(ROOT, "LICENSE"), join(dir, "LICENSE"));
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(platformManifest(name, version), null, 2)}\n`);
  writeFileSync(
    join(dir, "README.md"),
    `# ${platformPackage(name)}\n\nThe ${name} executable of [pi-sidecar](https://www.npmjs.com/package/pi-sidecar). ` +
      "Install `pi-sidecar` (npm installs this package on its own when it matches the machine).\n",
  );
  return dir;
}
