/**
 * Which repository a path belongs to: a root already indexed that contains it, else the nearest
 * folder upwards with `.git`, else the outermost workspace root (pnpm-workspace.yaml, or a
 * package.json with "workspaces"), else the nearest package.json, else the folder itself.
 */
import { existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fail, type Result } from "../errors.ts";
import { KOTA_ERRORS } from "./contract.ts";

function isWorkspaceRoot(dir: string): boolean {
  if (existsSync(join(dir, "pnpm-workspace.yaml"))) return true;
  try {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { workspaces?: unknown };
    return pkg.workspaces !== undefined;
  } catch {
    return false;
  }
}

function ancestors(start: string): string[] {
  const out: string[] = [];
  for (let dir = start; ; dir = dirname(dir)) {
    out.push(dir);
    if (dirname(dir) === dir) return out;
  }
}

const inside = (path: string, root: string) => path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);

/** `known`: roots already in the index (the deepest one containing the path wins). */
export function findRepoRoot(input: string, known: readonly string[] = [], home = homedir()): Result<{ root: string }> {
  if (!input?.trim()) return fail(KOTA_ERRORS.BAD_INPUT, "No repository given: pass its root folder or a path inside it.");
  const abs = resolve(input.trim());
  let real: string;
  let isDir: boolean;
  try {
    real = realpathSync(abs);
    isDir = statSync(real).isDirectory();
  } catch {
    return fail(KOTA_ERRORS.BAD_INPUT, `${abs} does not exist: pass the root of a checkout or a path inside it.`);
  }
  const start = isDir ? real : dirname(real);
  const hit = known.filter((r) => inside(start, r)).sort((a, b) => b.length - a.length)[0];
  if (hit) return { ok: true, root: hit };
  const chain = ancestors(start);
  let root = chain.find((d) => existsSync(join(d, ".git")));
  root ??= chain.filter(isWorkspaceRoot).at(-1);
  root ??= chain.find((d) => existsSync(join(d, "package.json")));
  root ??= start;
  if (root === dirname(root) || root === resolve(home)) {
    return fail(
      KOTA_ERRORS.BAD_INPUT,
      `${root} is ${root === dirname(root) ? "the file system root" : "your home folder"}, not a repository: pass the root of a checkout (a folder with .git or package.json).`,
    );
  }
  return { ok: true, root };
}
