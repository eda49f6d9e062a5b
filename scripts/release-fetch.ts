/**
 * What a release needs from the npm registry and does not commit: each platform's Bun runtime
 * (`@oven/bun-<os>-<arch>`, the executable a cross-compiled binary is built on) and oxc's native
 * parser binding (`@oxc-parser/binding-<platform>`). Fetched with the user's own npm (`npm pack`,
 * which checks the registry's integrity hash and honours .npmrc: registry, proxy, mirror) into a
 * cache folder, and unpacked there once; a package already in node_modules at the same version is
 * used as it is. With the cache filled, a release needs no network.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

const ROOT = join(import.meta.dir, "..");

/** The release cache: PI_SIDECAR_RELEASE_CACHE, else .release-cache/ in the checkout (git-ignored). */
export function releaseCache(env: Record<string, string | undefined> = process.env): string {
  return env.PI_SIDECAR_RELEASE_CACHE || join(ROOT, ".release-cache");
}

function versionAt(dir: string): string | null {
  try {
    return (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: string }).version ?? null;
  } catch {
    return null;
  }
}

function run(cmd: string[], cwd: string): string {
  const r = Bun.spawnSync(cmd, { cwd, stdout: "pipe", stderr: "pipe", env: process.env });
  if (r.exitCode !== 0) {
    throw new Error(`${cmd.join(" ")} failed (exit ${r.exitCode}): ${r.stderr.toString().trim() || r.stdout.toString().trim()}`);
  }
  return r.stdout.toString();
}

/**
 * The unpacked folder of `name@version`: node_modules' copy when it is that version, else the
 * cache's, else fetched with `npm pack` and unpacked into the cache.
 */
export function fetchPackage(name: string, version: string, cache = releaseCache()): string {
  const installed = join(ROOT, "node_modules", name);
  if (versionAt(installed) === version) return installed;
  const dir = join(cache, `${name.replace("/", "+")}@${version}`);
  if (versionAt(dir) === version) return dir;
  mkdirSync(cache, { recursive: true });
  const work = mkdtempSync(join(cache, ".fetch-"));
  try {
    const packed = JSON.parse(run(["npm", "pack", `${name}@${version}`, "--json", "--pack-destination", work], work)) as {
      filename: string;
    }[];
    const tarball = join(work, packed[0]!.filename);
    run(["tar", "-xzf", tarball, "-C", work], work);
    rmSync(dir, { recursive: true, force: true });
    renameSync(join(work, "package"), dir);
  } catch (error) {
    throw new Error(
      `could not get ${name}@${version} from the npm registry: ${error instanceof Error ? error.message : error}. ` +
        `Without network, unpack its tarball (npm pack ${name}@${version}) into ${dir}.`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  if (versionAt(dir) !== version) throw new Error(`${dir} does not hold ${name}@${version}`);
  return dir;
}

/** The one file a package names as its `main` (a binding's `.node`), which must exist. */
export function mainFile(dir: string): string {
  const main = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { main?: string }).main;
  const path = main ? join(dir, main) : "";
  if (!main || !existsSync(path)) throw new Error(`${dir}: its package.json names no main file that exists`);
  return path;
}
