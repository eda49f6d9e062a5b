/**
 * `npm run release`: one binary per platform, cross-compiled with Bun's --target, into
 * dist/release/pi-sidecar-<os>-<arch> (.exe on Windows) with SHA256SUMS, and each platform's npm
 * package into dist/npm/pi-sidecar-<os>-<arch>/ (publish those first, then pi-sidecar itself).
 *
 * Each binary is built on its own platform's Bun runtime (`@oven/bun-<os>-<arch>`, the same
 * version as the Bun running this) and carries its own platform's oxc parser binding
 * (`@oxc-parser/binding-<platform>`, the version oxc-parser is at): a build plugin hands the
 * target's binding to src/kota/oxc-binding.ts's literal require and leaves every other platform's
 * unbundled. Both come from the npm registry into the release cache (scripts/release-fetch.ts).
 *
 *   bun scripts/release.ts [--targets linux-x64,linux-arm64,...] [--out DIR]
 */
import { createHash } from "node:crypto";
import { chmodSync, createReadStream, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import type { BunPlugin } from "bun";
import { buildExtension } from "../build.ts";
import pkg from "../package.json" with { type: "json" };
import { binaryFile, PLATFORMS, type PlatformName, platformName, platformPackage } from "../src/platforms.ts";
import { compileBinary } from "./compile.ts";
import { adHocSign, checkMachOSignature } from "./macho-signature.ts";
import { writePlatformPackage } from "./platform-package.ts";
import { fetchPackage, mainFile } from "./release-fetch.ts";

const ROOT = join(import.meta.dir, "..");

type Target = { bun: Bun.Build.CompileTarget; runtime: string; oxc: string };

/** Bun's target, the npm package of its runtime, and oxc's binding for each platform (glibc on Linux). */
export const TARGETS: Record<PlatformName, Target> = {
  "linux-x64": { bun: "bun-linux-x64", runtime: "@oven/bun-linux-x64", oxc: "@oxc-parser/binding-linux-x64-gnu" },
  "linux-arm64": { bun: "bun-linux-arm64", runtime: "@oven/bun-linux-aarch64", oxc: "@oxc-parser/binding-linux-arm64-gnu" },
  "darwin-x64": { bun: "bun-darwin-x64", runtime: "@oven/bun-darwin-x64", oxc: "@oxc-parser/binding-darwin-x64" },
  "darwin-arm64": { bun: "bun-darwin-arm64", runtime: "@oven/bun-darwin-aarch64", oxc: "@oxc-parser/binding-darwin-arm64" },
  "windows-x64": { bun: "bun-windows-x64", runtime: "@oven/bun-windows-x64", oxc: "@oxc-parser/binding-win32-x64-msvc" },
};

/** The release file of `name`: pi-sidecar-linux-x64, ..., pi-sidecar-windows-x64.exe. */
export function releaseFile(name: PlatformName): string {
  return `${platformPackage(name)}${binaryFile(name).endsWith(".exe") ? ".exe" : ""}`;
}

/** Resolves `target`'s oxc binding to its `.node` file and leaves every other platform's binding out. */
export function oxcBindingPlugin(binding: string, nodeFile: string): BunPlugin {
  return {
    name: "oxc-binding-for-target",
    setup(build) {
      build.onResolve({ filter: /^@oxc-parser\/binding-/ }, (args) =>
        args.path === binding ? { path: nodeFile } : { path: args.path, external: true },
      );
    },
  };
}

function oxcVersion(): string {
  return (JSON.parse(readFileSync(join(ROOT, "node_modules/oxc-parser/package.json"), "utf8")) as { version: string }).version;
}

/** The Bun runtime for `name`: this very executable when it is that platform's, else the npm package's. */
function runtimeFor(name: PlatformName): string | undefined {
  if (name === platformName()) return undefined;
  const dir = fetchPackage(TARGETS[name].runtime, Bun.version);
  const exe = join(dir, "bin", name.startsWith("windows") ? "bun.exe" : "bun");
  if (!existsSync(exe)) throw new Error(`${TARGETS[name].runtime}@${Bun.version} has no ${exe}`);
  return exe;
}

/** Compiles `name`'s binary into `outDir`; returns its path. The extension must be built (build.ts's buildExtension). */
export async function releaseBinary(name: PlatformName, outDir: string): Promise<string> {
  const t = TARGETS[name];
  const binding = mainFile(fetchPackage(t.oxc, oxcVersion()));
  const outfile = join(outDir, releaseFile(name));
  rmSync(outfile, { force: true });
  await compileBinary({ outfile, target: t.bun, executablePath: runtimeFor(name), plugins: [oxcBindingPlugin(t.oxc, binding)] });
  if (!existsSync(outfile)) throw new Error(`the build reported success but ${outfile} is missing`);
  chmodSync(outfile, 0o755);
  if (name.startsWith("darwin")) {
    // macOS kills a binary whose pages do not match its signature. Bun signs darwin-arm64 output
    // ad hoc, but leaves darwin-x64 output with the runtime's own signature, which no longer fits.
    if (!checkMachOSignature(outfile).ok) adHocSign(outfile);
    const sig = checkMachOSignature(outfile);
    if (!sig.ok) throw new Error(`${outfile}: invalid code signature (${sig.problem}); re-sign it with codesign --force --sign - on a Mac`);
  }
  return outfile;
}

export async function sha256(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** SHA256SUMS in `sha256sum -c` format, one line per file, sorted by name. */
export async function writeChecksums(files: string[], outDir: string): Promise<string> {
  const lines: string[] = [];
  for (const f of [...files].sort()) lines.push(`${await sha256(f)}  ${basename(f)}`);
  const path = join(outDir, "SHA256SUMS");
  writeFileSync(path, `${lines.join("\n")}\n`);
  return path;
}

/**
 * pi-sidecar's optional dependencies must name every platform package at its own version, and
 * each oxc binding the extension's engine may require (pi on Bun) at the version oxc-parser is at.
 */
export function checkOptionalDependencies(): void {
  const optional = (pkg as { optionalDependencies?: Record<string, string> }).optionalDependencies ?? {};
  const want: Record<string, string> = Object.fromEntries(PLATFORMS.map((p) => [platformPackage(p), pkg.version]));
  for (const t of Object.values(TARGETS)) want[t.oxc] = oxcVersion();
  const wrong = Object.entries(want).filter(([name, version]) => optional[name] !== version);
  if (wrong.length > 0) {
    throw new Error(`package.json's optionalDependencies must list ${wrong.map(([n, v]) => `"${n}": "${v}"`).join(", ")}`);
  }
}

function parseTargets(value: string | undefined): PlatformName[] {
  if (!value) return [...PLATFORMS];
  const names = value.split(",").map((s) => s.trim());
  for (const n of names)
    if (!(PLATFORMS as readonly string[]).includes(n)) throw new Error(`unknown target ${n}: one of ${PLATFORMS.join(", ")}`);
  return names as PlatformName[];
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { targets: { type: "string" }, out: { type: "string" } } });
  const targets = parseTargets(values.targets);
  const outDir = values.out ?? join(ROOT, "dist", "release");
  checkOptionalDependencies();
  mkdirSync(outDir, { recursive: true });
  await buildExtension();
  for (const name of targets) {
    const started = performance.now();
    const file = await releaseBinary(name, outDir);
    writePlatformPackage(name, file, join(ROOT, "dist", "npm"));
    const mb = (statSync(file).size / 1e6).toFixed(1);
    console.error(`${basename(file)}: ${mb} MB (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  // Every release file in the folder (one built earlier with other --targets too): the sums match the files.
  const present = PLATFORMS.map((p) => join(outDir, releaseFile(p))).filter((f) => existsSync(f));
  const sums = await writeChecksums(present, outDir);
  console.error(`${sums}\nnpm packages: ${join(ROOT, "dist", "npm")}/ (npm publish each, then pi-sidecar)`);
}

if (import.meta.main) {
  try {
    await main();
  } catch (error) {
    console.error(`release: ${error instanceof Error ? error.message : error}`);
    process.exit(1);
  }
}
