/**
 * Which package folders of a repository can be imported by name, as a package manager links them
 * into node_modules: the members its workspace declares (root `pnpm-workspace.yaml` `packages`, or
 * the root package.json `workspaces`, an array or yarn's `{ packages }`), the root package, and
 * `file:` / `link:` dependencies (linked for the files of the package that declares them). A folder
 * with a package.json that is none of these (a registry fixture, a test project) is not in any
 * node_modules: TypeScript and Node leave a bare import of its name unresolved. A repository that
 * declares no workspace keeps every package.json folder importable (nothing says otherwise).
 *
 * Globs are matched as pnpm's and npm's are, against `<folder>/package.json` (`!` excludes, `**`
 * spans any number of folders, none included).
 */
import { posix } from "node:path";
import { compileGlob, type Glob } from "../../../glob.ts";

/** A parsed package.json, as far as this file reads it. */
type Manifest = object;

export const PNPM_WORKSPACE = "pnpm-workspace.yaml";

/**
 * The workspace globs the repository declares, or null when it declares none. A pnpm-workspace.yaml
 * without `packages` (one that only holds settings or catalogs) is a workspace of the root alone to
 * pnpm, unless the root package.json declares `workspaces` for another package manager.
 */
export function workspacePatterns(readText: (path: string) => string | null, root: Manifest | null): string[] | null {
  const ws = (root as { workspaces?: unknown } | null)?.workspaces;
  const list = Array.isArray(ws) ? ws : ws && typeof ws === "object" ? (ws as { packages?: unknown }).packages : undefined;
  const declared = Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : null;
  const yaml = readText(PNPM_WORKSPACE);
  if (yaml === null) return declared;
  let packages: unknown;
  try {
    const parsed = Bun.YAML.parse(yaml) as { packages?: unknown } | null;
    packages = parsed && typeof parsed === "object" ? parsed.packages : undefined;
  } catch {
    return declared; // unreadable: as if it said nothing
  }
  if (Array.isArray(packages)) return packages.filter((p): p is string => typeof p === "string");
  return declared ?? [];
}

/** A test for package folders (repo-relative, "." the root) against workspace globs: the last matching glob decides. */
export function memberTest(patterns: readonly string[]): (dir: string) => boolean {
  const rules: { glob: Glob; include: boolean }[] = [];
  for (const raw of patterns) {
    const include = !raw.startsWith("!");
    const body = posix
      .normalize(include ? raw : raw.slice(1))
      .replace(/^\.\//, "")
      .replace(/\/+$/, "");
    if (body === "" || body.startsWith("../")) continue;
    rules.push({ glob: compileGlob(body === "." ? "package.json" : `${body}/package.json`), include });
  }
  return (dir) => {
    if (dir === ".") return true;
    const manifest = `${dir}/package.json`;
    let member = false;
    for (const r of rules) if (r.include !== member && r.glob.test(manifest)) member = r.include;
    return member;
  };
}

/** A `file:` / `link:` dependency: `name` links to `target` for the files under `from`. */
export type LinkedPackage = { from: string; name: string; target: string };

const DEPENDENCY_FIELDS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"] as const;

/** The `file:` and `link:` dependencies of one manifest at folder `dir` that point at a folder inside the repository. */
export function linkedPackages(dir: string, pkg: Manifest): LinkedPackage[] {
  const out: LinkedPackage[] = [];
  for (const field of DEPENDENCY_FIELDS) {
    const deps = (pkg as Record<string, unknown>)[field];
    if (!deps || typeof deps !== "object") continue;
    for (const [name, spec] of Object.entries(deps)) {
      if (typeof spec !== "string") continue;
      const m = /^(?:file|link):(.+)$/.exec(spec);
      if (!m) continue;
      const target = posix.normalize(posix.join(dir, m[1]!)).replace(/\/+$/, "");
      if (target.startsWith("../") || target === "..") continue;
      out.push({ from: dir, name, target });
    }
  }
  return out;
}
