/**
 * package.json files inside the repository (workspace packages): name -> folder, each manifest read
 * once (conditions.ts reads their `exports` and `imports`).
 */
import { posix } from "node:path";

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
  const names = (): Map<string, string> => {
    if (byName) return byName;
    byName = new Map();
    // Shallow folders first, so a fixture copy deep in the tree does not shadow the real package.
    const sorted = [...deps.packageFiles].sort((a, b) => a.split("/").length - b.split("/").length);
    for (const file of sorted) {
      const name = read(file)?.name;
      if (typeof name === "string" && !byName.has(name)) byName.set(name, posix.dirname(file));
    }
    return byName;
  };
  return {
    read,
    /** The folder of the workspace package `name`, or null. */
    dirOf(name: string): string | null {
      return names().get(name) ?? null;
    },
  };
}

export type Packages = ReturnType<typeof createPackages>;
