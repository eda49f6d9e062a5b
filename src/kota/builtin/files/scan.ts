/**
 * Walks a repository for the files the index covers: TS/JS sources not ignored by .gitignore, not in
 * node_modules or build output, not over 1 MiB; plus the files that shape resolution (tsconfig,
 * package.json, .gitignore) and every folder's mtime, so a later check can notice new files cheaply.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.ts";

export const MAX_FILE_BYTES = 1024 * 1024;

export const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Files whose change can change how imports resolve or which files are indexed. */
export const CONFIG_FILE = /^(?:tsconfig.*\.json|jsconfig.*\.json|package\.json|\.gitignore)$/;
const MINIFIED = /\.min\.[cm]?js$/;

// Dependencies, VCS data and build output: never indexed, whatever .gitignore says.
export const SKIP_DIRS = new Set([
  "node_modules",
  ".git",
  ".hg",
  ".svn",
  "dist",
  "coverage",
  ".next",
  ".nuxt",
  ".output",
  ".svelte-kit",
  ".turbo",
  ".cache",
  ".parcel-cache",
  ".vercel",
  ".wrangler",
  ".yarn",
  ".pnpm-store",
  ".kotadb",
]);

export type ScannedFile = { path: string; size: number; mtimeMs: number };

export type ScanResult = {
  sources: ScannedFile[];
  configs: ScannedFile[];
  dirs: { path: string; mtimeMs: number }[];
  /** Source files left out because they are larger than MAX_FILE_BYTES. */
  tooBig: string[];
};

export function rootIgnoreRules(root: string): IgnoreRule[] {
  try {
    return parseGitignore(readFileSync(join(root, ".git/info/exclude"), "utf8"), ".");
  } catch {
    return [];
  }
}

/** Reads one folder's entries with its own .gitignore applied; `rules` are the rules from above it. */
export function listDir(
  root: string,
  dir: string,
  rules: readonly IgnoreRule[],
): { entries: { path: string; name: string; isDir: boolean }[]; rules: IgnoreRule[] } | null {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir === "." ? root : join(root, dir), { withFileTypes: true });
  } catch {
    return null; // vanished or unreadable: it simply has no files
  }
  let own = rules as IgnoreRule[];
  if (dirents.some((d) => d.name === ".gitignore" && d.isFile())) {
    try {
      own = [...rules, ...parseGitignore(readFileSync(join(root, dir, ".gitignore"), "utf8"), dir)];
    } catch {
      // unreadable .gitignore: keep the rules from above
    }
  }
  const entries: { path: string; name: string; isDir: boolean }[] = [];
  for (const d of dirents) {
    // Symlinks are not followed: they can loop or leave the repository.
    if (d.isSymbolicLink()) continue;
    const isDir = d.isDirectory();
    if (!isDir && !d.isFile()) continue;
    if (isDir && SKIP_DIRS.has(d.name)) continue;
    if (!isDir && MINIFIED.test(d.name)) continue;
    const path = dir === "." ? d.name : `${dir}/${d.name}`;
    if (isDir || SOURCE_FILE.test(d.name) || CONFIG_FILE.test(d.name)) {
      if (isIgnored(own, path, isDir)) continue;
      entries.push({ path, name: d.name, isDir });
    }
  }
  return { entries, rules: own };
}

/** The ignore rules that apply inside `dir`: .git/info/exclude and every .gitignore above it (not its own). */
export function rulesAbove(root: string, dir: string): IgnoreRule[] {
  const rules = rootIgnoreRules(root);
  if (dir === ".") return rules;
  const parts = dir.split("/");
  for (let i = 0; i < parts.length; i++) {
    const base = i === 0 ? "." : parts.slice(0, i).join("/");
    try {
      rules.push(...parseGitignore(readFileSync(join(root, base, ".gitignore"), "utf8"), base));
    } catch {
      // no .gitignore there
    }
  }
  return rules;
}

/** The ignore rules that apply to entries of `dir`: those above it plus its own .gitignore. */
export function rulesWithin(root: string, dir: string): IgnoreRule[] {
  const rules = rulesAbove(root, dir);
  try {
    rules.push(...parseGitignore(readFileSync(join(root, dir, ".gitignore"), "utf8"), dir));
  } catch {
    // no .gitignore there
  }
  return rules;
}

/** `shouldStop` is asked between folders, so a huge tree can be abandoned part way. */
export function scanRepository(root: string, shouldStop: () => boolean = () => false): ScanResult | null {
  return scanTree(root, ".", rootIgnoreRules(root), shouldStop);
}

/** Scans the folder `start` and everything below it; `rules` are the ignore rules from above it. */
export function scanTree(
  root: string,
  start: string,
  startRules: IgnoreRule[],
  shouldStop: () => boolean = () => false,
): ScanResult | null {
  const result: ScanResult = { sources: [], configs: [], dirs: [], tooBig: [] };
  const stack: { dir: string; rules: IgnoreRule[] }[] = [{ dir: start, rules: startRules }];
  while (stack.length > 0) {
    if (shouldStop()) return null;
    const { dir, rules } = stack.pop()!;
    const listed = listDir(root, dir, rules);
    if (!listed) continue;
    try {
      result.dirs.push({ path: dir, mtimeMs: statSync(dir === "." ? root : join(root, dir)).mtimeMs });
    } catch {
      continue;
    }
    for (const e of listed.entries) {
      if (e.isDir) {
        stack.push({ dir: e.path, rules: listed.rules });
        continue;
      }
      let size: number;
      let mtimeMs: number;
      try {
        const st = statSync(join(root, e.path));
        size = st.size;
        mtimeMs = st.mtimeMs;
      } catch {
        continue;
      }
      if (CONFIG_FILE.test(e.name)) result.configs.push({ path: e.path, size, mtimeMs });
      if (!SOURCE_FILE.test(e.name)) continue;
      if (size > MAX_FILE_BYTES) result.tooBig.push(e.path);
      else result.sources.push({ path: e.path, size, mtimeMs });
    }
  }
  return result;
}
