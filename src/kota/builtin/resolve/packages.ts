/**
 * package.json files inside the repository (workspace packages): name -> folder, and the subpath
 * maps `exports` and `imports` as Node and TypeScript read them (conditions in object order).
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
};

// TypeScript's bundler resolution reads `types`, `import`, `default`; `require` and `node` cover CJS packages.
const CONDITIONS = new Set(["types", "typings", "import", "module", "node", "default", "require"]);

function targetsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) targetsOf(v, out);
  else if (value && typeof value === "object") {
    for (const [key, v] of Object.entries(value)) if (CONDITIONS.has(key)) targetsOf(v, out);
  }
  return out;
}

/** The targets a subpath map gives `request` ("." or "./x" for exports, "#x" for imports), best first. */
export function matchSubpath(map: unknown, request: string): string[] {
  if (map === null || map === undefined) return [];
  const isSubpathMap =
    typeof map === "object" && !Array.isArray(map) && Object.keys(map).some((k) => k.startsWith(".") || k.startsWith("#"));
  const entries: Record<string, unknown> = isSubpathMap ? (map as Record<string, unknown>) : { ".": map };
  if (request in entries) return targetsOf(entries[request]);
  let best: { key: string; star: number } | null = null;
  for (const key of Object.keys(entries)) {
    const star = key.indexOf("*");
    if (star === -1) continue;
    const prefix = key.slice(0, star);
    const suffix = key.slice(star + 1);
    if (request.length < key.length - 1 || !request.startsWith(prefix) || !request.endsWith(suffix)) continue;
    if (!best || prefix.length > best.star) best = { key, star: prefix.length };
  }
  if (!best) return [];
  const suffixLength = best.key.length - best.star - 1;
  const middle = request.slice(best.star, request.length - suffixLength);
  return targetsOf(entries[best.key]).map((t) => t.replaceAll("*", middle));
}

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
