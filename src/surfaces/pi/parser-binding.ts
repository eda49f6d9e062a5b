/**
 * The TypeScript parser's native binding for the extension that `install pi` writes. In pi on
 * Bun the engine runs in pi's process and requires `@oxc-parser/binding-<platform>` by name;
 * npm installs it beside the npm package, but an extension written by the binary has no
 * node_modules, and Bun would then fetch the package from the registry on first use (or, offline,
 * index no symbols). The compiled binary carries its platform's binding in its embedded file
 * system (`parser.<platform>-<hash>.node`): this writes it into the extension's own node_modules.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import oxc from "oxc-parser/package.json" with { type: "json" };

const EMBEDDED = /^parser\.([a-z0-9]+(?:-[a-z0-9]+)+?)-[a-z0-9]{8}\.node$/;

/** The embedded file system's root when this is the compiled binary (its entry lives there), else null. */
export function embeddedRoot(main = process.argv[1]): string | null {
  return main && /^(\/\$bunfs\/|B:[\\/]~BUN[\\/])/.test(main) ? dirname(main) : null;
}

/** Writes each binding the binary carries as a package under `dir`/node_modules; returns the files written. */
export function writeParserBindings(dir: string, root: string | null = embeddedRoot()): string[] {
  if (!root) return [];
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  const written: string[] = [];
  for (const name of names) {
    const platform = EMBEDDED.exec(name)?.[1];
    if (!platform) continue;
    const pkgDir = join(dir, "node_modules", "@oxc-parser", `binding-${platform}`);
    mkdirSync(pkgDir, { recursive: true });
    const file = `parser.${platform}.node`;
    writeFileSync(join(pkgDir, file), readFileSync(join(root, name)));
    const manifest = { name: `@oxc-parser/binding-${platform}`, version: oxc.version, main: file };
    writeFileSync(join(pkgDir, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    written.push(join(pkgDir, file), join(pkgDir, "package.json"));
  }
  return written;
}
