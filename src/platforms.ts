/**
 * The platforms pi-sidecar ships a binary for, and where npm puts that binary: one package per
 * platform (`pi-sidecar-linux-x64`, ...), each an optional dependency of `pi-sidecar` that npm
 * installs only on its own os and cpu, as esbuild and biome do. bin/pi-sidecar.js (the npm `bin`,
 * plain JavaScript run by Node) keeps its own copy of the table; a test holds the two equal.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

export const PLATFORMS = ["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64", "windows-x64"] as const;
export type PlatformName = (typeof PLATFORMS)[number];

const NODE_NAMES: Record<string, PlatformName> = {
  "linux x64": "linux-x64",
  "linux arm64": "linux-arm64",
  "darwin x64": "darwin-x64",
  "darwin arm64": "darwin-arm64",
  "win32 x64": "windows-x64",
};

/** The platform this runtime reports (Node's `process.platform`/`arch`), or null when none is shipped. */
export function platformName(platform: string = process.platform, arch: string = process.arch): PlatformName | null {
  return NODE_NAMES[`${platform} ${arch}`] ?? null;
}

/** The npm package that carries `name`'s binary; also the release file's name (plus `.exe` on Windows). */
export function platformPackage(name: PlatformName): string {
  return `pi-sidecar-${name}`;
}

/** The binary's file name on `name` (inside the platform package: `bin/<file>`). */
export function binaryFile(name: PlatformName): string {
  return name.startsWith("windows") ? "pi-sidecar.exe" : "pi-sidecar";
}

/**
 * This platform's binary as Node's module resolution finds it from `fromDir` (the package that
 * depends on it, or any folder below its node_modules), or null when npm did not install it.
 */
export function installedPlatformBinary(fromDir: string, name: PlatformName | null = platformName()): string | null {
  if (!name) return null;
  try {
    const manifest = createRequire(join(fromDir, "package.json")).resolve(`${platformPackage(name)}/package.json`);
    const bin = join(dirname(manifest), "bin", binaryFile(name));
    return existsSync(bin) ? bin : null;
  } catch {
    return null;
  }
}
