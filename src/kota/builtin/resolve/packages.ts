/**
 * package.json files inside the repository (workspace packages): name -> folder, each manifest read
 * once (conditions.ts reads their `exports` and `imports`). Only the folders a package manager links
 * can be imported by name (workspace-members.ts).
 */
import { posix } from "node:path";
import { type LinkedPackage, linkedPackages, memberTest, workspacePatterns } from "./workspace-members.ts";

export type PackageJson = {
  name?: unknown;
  exports?: unknown;
  imports?: unknown;
  types?: unknown;
  typings?: unknown;
  module?: unknown;
  main?: unknown;
  type?: unknown;
  preconstruct?: unknown;
};

/** Workspace packages by name, read lazily from the repo's package.json files. */
export function createPackages(deps: { packageFiles: string[]; readText(path: string): string | null }) {
  const json = new Map<string, PackageJson | null>();
  const read = (file: string): PackageJson | null => {
    if (json.has(file)) return json.get(file)!;
    let parsed: PackageJson | null = null;
    try {
      const text = deps.readText(file);
      const value = text === null ? null : JSON.parse(text);
      parsed = value && typeof value === "object" ? (value as PackageJson) : null;
    } catch {
      parsed = null;
    }
    json.set(file, parsed);
    return parsed;
  };
  // Every folder of each name, shallow folders first (a fixture copy deep in the tree does not shadow the
  // real package); which one is linked is decided when the name is first asked for: most names never are.
  let candidates: Map<string, string[]> | null = null;
  const chosen = new Map<string, string | null>();
  let links: LinkedPackage[] = [];
  let member: (dir: string) => boolean = () => true;
  const memberOf = new Map<string, boolean>();
  const names = (): Map<string, string[]> => {
    if (candidates) return candidates;
    candidates = new Map();
    const patterns = workspacePatterns(deps.readText, deps.packageFiles.includes("package.json") ? read("package.json") : null);
    if (patterns !== null) member = memberTest(patterns);
    const sorted = [...deps.packageFiles].sort((a, b) => a.split("/").length - b.split("/").length);
    const present = new Set(deps.packageFiles.map((f) => posix.dirname(f)));
    for (const file of sorted) {
      const pkg = read(file);
      if (!pkg) continue;
      const dir = posix.dirname(file);
      if (patterns !== null) links.push(...linkedPackages(dir, pkg).filter((l) => present.has(l.target)));
      const name = pkg.name;
      if (typeof name !== "string") continue;
      const list = candidates.get(name);
      if (list) list.push(dir);
      else candidates.set(name, [dir]);
    }
    // The nearest declaring package first: its link is the one Node finds walking up from the importer
    // (the root is the farthest: "." has no folder in it, so it counts none, not one).
    const depth = (dir: string) => (dir === "." ? 0 : dir.split("/").length);
    links = links.sort((a, b) => depth(b.from) - depth(a.from));
    return candidates;
  };
  const isMember = (dir: string): boolean => {
    names();
    let yes = memberOf.get(dir);
    if (yes === undefined) {
      yes = member(dir);
      memberOf.set(dir, yes);
    }
    return yes;
  };
  return {
    read,
    /**
     * The folder of the package `name` as imported from `from` (repo-relative): a workspace member,
     * the root, or a `file:` dependency of a package the importer belongs to. Null when none.
     */
    dirOf(name: string, from = "."): string | null {
      let dir = chosen.get(name);
      if (dir === undefined) {
        dir = names().get(name)?.find(isMember) ?? null;
        chosen.set(name, dir);
      }
      if (dir !== null) return dir;
      for (const l of links) if (l.name === name && (l.from === "." || from === l.from || from.startsWith(`${l.from}/`))) return l.target;
      return null;
    },
    /** Whether the package folder `dir` is linked by name (a workspace member or the root; every folder when no workspace is declared). */
    isMember,
  };
}

export type Packages = ReturnType<typeof createPackages>;
