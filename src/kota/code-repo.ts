/**
 * Whether a folder is in a TS/JS project, decided cheaply when a session starts (a few stats and at
 * most two directory listings; no index, no engine): the kota_* tools' definitions are sent to the
 * model on every call, so a session that has no code to ask about should not carry them.
 */
import { existsSync, readdirSync, realpathSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { SOURCE_FILE } from "./builtin/files/scan.ts";

/** Files that mark the root of a JS/TS project. */
const MARKERS = ["package.json", "tsconfig.json", "jsconfig.json", "deno.json", "deno.jsonc"];

export type CodeRepoVerdict = { code: boolean; why: string };

function topLevelCode(dir: string): string | null {
  try {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isFile() && SOURCE_FILE.test(e.name)) return e.name;
    }
  } catch {
    // unreadable: no verdict from it
  }
  return null;
}

/**
 * Walks from `cwd` up to the repository root (the nearest `.git`; without one, up to the home
 * folder or the file system root, neither counted): a project marker in any folder on the way, or
 * a TS/JS file at the top of `cwd` or of the repository root, says yes.
 */
export function isCodeRepo(cwd: string, home = homedir()): CodeRepoVerdict {
  let start: string;
  try {
    start = realpathSync(resolve(cwd));
  } catch {
    return { code: false, why: `${cwd} does not exist` };
  }
  const stop = resolve(home);
  let root: string | null = null;
  for (let dir = start; ; dir = dirname(dir)) {
    if (dir === stop || dir === dirname(dir)) break;
    const marker = MARKERS.find((m) => existsSync(join(dir, m)));
    if (marker) return { code: true, why: join(dir, marker) };
    if (existsSync(join(dir, ".git"))) {
      root = dir;
      break;
    }
  }
  for (const dir of new Set([start, root ?? start])) {
    const file = topLevelCode(dir);
    if (file) return { code: true, why: join(dir, file) };
  }
  return { code: false, why: `no package.json, tsconfig.json or TS/JS file between ${start} and ${root ?? "the home folder"}` };
}
