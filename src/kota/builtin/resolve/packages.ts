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
  let byName: Map<string, string> | null = null;
  let links: LinkedPackage[] = [];
  let isMember: ((dir: string) => boolean) | null = null;
  const names = (): Map<string, string> => {
    if (byName) return byName;
    byName = new Map();
    const patterns = workspacePatterns(deps.readText, deps.packageFiles.includes("package.json") ? read("package.json") : null);
    const member = patterns === null ? () => true : memberTest(patterns);
    isMember = member;
    // Shallow folders first, so a fixture copy deep in the tree does not shadow the real package.
    const sorted = [...deps.packageFiles].sort((a, b) => a.split("/").length - b.split("/").length);
    const present = new Set(deps.packageFiles.map((f) => posix.dirname(f)));
    for (const file of sorted) {
      const pkg = read(file);
      if (!pkg) continue;
      const dir = posix.dirname(file);
      if (patterns !== null) links.push(...linkedPackages(dir, pkg).filter((l) => present.has(l.target)));
      const name = pkg.name;
      if (typeof name === "string" && !byName.has(name) && member(dir)) byName.set(name, dir);
    }
    // The nearest declaring package first: its link is the one Node finds walking up from the importer.
    links = links.sort((a, b) => b.from.split("/").length - a.from.split("/").length);
    return byName;
  };
  return {
    read,
    /**
     * The folder of the package `name` as imported from `from` (repo-relative): a workspace member,
     * the root, or a `file:` dependency of a package the importer belongs to. Null when none.
     */
    dirOf(name: string, from = "."): string | null {
      const member = names().get(name);
      if (member !== undefined) return member;
      for (const l of links) if (l.name === name && (l.from === "." || from === l.from || from.startsWith(`${l.from}/`))) return l.target;
      return null;
    },
    /** Whether the package folder `dir` is linked by name (a workspace member or the root; every folder when no workspace is declared). */
    isMember(dir: string): boolean {
      names();
      return isMember!(dir);
    },
  };
}

export type Packages = ReturnType<typeof createPackages>;
