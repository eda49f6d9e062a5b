/**
 * Walks a repository for the files the index covers: TS/JS sources as git lists them (tracked, or
 * untracked and not ignored), not in node_modules or build output, not over 1 MiB, never a
 * sensitive file (`.env.ts`, keys, credentials: src/sensitive-paths.ts); plus the files that shape resolution (tsconfig,
 * package.json, .gitignore; the manifests even when ignored, as TypeScript reads them) and every folder's mtime, so a
 * later check can notice new files cheaply.
 */
import { type Dirent, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { isSensitivePath } from "../../../sensitive-paths.ts";
import { type GitView, gitView } from "./git-files.ts";
import { type IgnoreRule, isIgnored, parseGitignore } from "./gitignore.ts";

export const MAX_FILE_BYTES = 1024 * 1024;

export const SOURCE_FILE = /\.(?:ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Files whose change can change how imports resolve, which files are indexed, or which are tests. */
export const CONFIG_FILE =
  /^(?:tsconfig.*\.json|jsconfig.*\.json|package\.json|pnpm-workspace\.yaml|\.gitignore|jest\.config\.(?:[cm]?[jt]s|json)|vitest\.(?:config|workspace)\.[cm]?[jt]s|(?:vite|rollup|tsup|tsdown|build)\.config\.[cm]?[jt]s|\.mocharc\.(?:json|ya?ml|[cm]?js))$/;
const MINIFIED = /\.min\.[cm]?js$/;
/**
 * The manifests TypeScript reads from disk whatever git says (tsconfig, package.json): in a folder
 * the index enters, they shape resolution even when an ignore rule matches them and git does not track them.
 */
export const MANIFEST_FILE = /^(?:tsconfig.*\.json|jsconfig.*\.json|package\.json)$/;

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

/** What decides which files exist for the index, besides the .gitignore files in the tree. */
export type FileView = {
  /** Git's tracked files and out-of-tree ignore rules; null outside a git work tree. */
  git: GitView | null;
  /** The user's extra sensitive globs (readcache.sensitive); the built-in list always applies. */
  sensitive: readonly string[];
};

export function fileView(root: string, sensitive: readonly string[] = []): FileView {
  return { git: gitView(root), sensitive };
}

/** The rules in force in a folder, and whether the folder itself is ignored (entered only for what git tracks in it). */
export type DirRules = { rules: IgnoreRule[]; ignored: boolean };

function readRules(root: string, dir: string): IgnoreRule[] {
  try {
    return parseGitignore(readFileSync(join(root, dir, ".gitignore"), "utf8"), dir);
  } catch {
    return []; // no .gitignore there, or unreadable: the rules from above stay
  }
}

/** Rules of the root folder's entries that do not come from its .gitignore (info/exclude, core.excludesFile). */
export function rootIgnoreRules(root: string, view: FileView): IgnoreRule[] {
  if (view.git) return [...view.git.excludes];
  try {
    return parseGitignore(readFileSync(join(root, ".git/info/exclude"), "utf8"), ".");
  } catch {
    return [];
  }
}

const isSensitive = (root: string, path: string, view: FileView) =>
  isSensitivePath(path, []) || (view.sensitive.length > 0 && isSensitivePath(join(root, path), view.sensitive));

/** Reads one folder's entries with its own .gitignore applied; `above` are the rules from above it. */
export function listDir(
  root: string,
  dir: string,
  above: DirRules,
  view: FileView,
): { entries: { path: string; name: string; isDir: boolean; ignored: boolean }[]; rules: IgnoreRule[] } | null {
  let dirents: Dirent[];
  try {
    dirents = readdirSync(dir === "." ? root : join(root, dir), { withFileTypes: true });
  } catch {
    return null; // vanished or unreadable: it simply has no files
  }
  const own = dirents.some((d) => d.name === ".gitignore" && d.isFile()) ? [...above.rules, ...readRules(root, dir)] : above.rules;
  const entries: { path: string; name: string; isDir: boolean; ignored: boolean }[] = [];
  for (const d of dirents) {
    // Symlinks are not followed: they can loop or leave the repository.
    if (d.isSymbolicLink()) continue;
    const isDir = d.isDirectory();
    if (!isDir && !d.isFile()) continue;
    if (isDir && SKIP_DIRS.has(d.name)) continue;
    if (!isDir && MINIFIED.test(d.name)) continue;
    const path = dir === "." ? d.name : `${dir}/${d.name}`;
    if (!isDir && !SOURCE_FILE.test(d.name) && !CONFIG_FILE.test(d.name)) continue;
    if (!isDir && isSensitive(root, path, view)) continue;
    // git lists what it tracks whatever the ignore rules say, and nothing else under an ignored folder.
    const tracked = isDir ? view.git?.trackedDirs.has(path) === true : view.git?.tracked.has(path) === true;
    const ignored = above.ignored || isIgnored(own, path, isDir);
    if (ignored && !tracked && (isDir || !MANIFEST_FILE.test(d.name))) continue;
    entries.push({ path, name: d.name, isDir, ignored });
  }
  return { entries, rules: own };
}

/** The rules in force inside `dir` (not its own .gitignore), and whether `dir` is ignored itself. */
export function rulesAbove(root: string, dir: string, view: FileView): DirRules {
  const rules = rootIgnoreRules(root, view);
  if (dir === ".") return { rules, ignored: false };
  const parts = dir.split("/");
  let ignored = false;
  for (let i = 0; i < parts.length; i++) {
    const base = i === 0 ? "." : parts.slice(0, i).join("/");
    rules.push(...readRules(root, base));
    const sub = parts.slice(0, i + 1).join("/");
    ignored ||= isIgnored(rules, sub, true);
  }
  return { rules, ignored };
}

/**
 * Why `path` (repo-relative) is left out of the index by the file rules: a sensitive name, or
 * ignored by git (itself or a folder above it) and not tracked. Null when the rules keep it.
 */
export function excludedBy(root: string, path: string, isDir: boolean, view: FileView): "sensitive" | "ignored" | null {
  if (!isDir && isSensitive(root, path, view)) return "sensitive";
  if (isDir ? view.git?.trackedDirs.has(path) : view.git?.tracked.has(path)) return null;
  const slash = path.lastIndexOf("/");
  const dir = slash === -1 ? "." : path.slice(0, slash);
  const parent = rulesAbove(root, dir, view);
  if (!isDir && MANIFEST_FILE.test(path.slice(slash + 1))) {
    // Counted wherever the walk enters: a folder that is not ignored, or one git tracks files in.
    const entered = (!parent.ignored || view.git?.trackedDirs.has(dir) === true) && !dir.split("/").some((p) => SKIP_DIRS.has(p));
    return entered ? null : "ignored";
  }
  if (parent.ignored) return "ignored";
  return isIgnored([...parent.rules, ...readRules(root, dir)], path, isDir) ? "ignored" : null;
}

/** `shouldStop` is asked between folders, so a huge tree can be abandoned part way. */
export function scanRepository(root: string, view: FileView, shouldStop: () => boolean = () => false): ScanResult | null {
  return scanTree(root, ".", { rules: rootIgnoreRules(root, view), ignored: false }, view, shouldStop);
}

/** Scans the folder `start` and everything below it; `above` are the rules from above it. */
export function scanTree(
  root: string,
  start: string,
  above: DirRules,
  view: FileView,
  shouldStop: () => boolean = () => false,
): ScanResult | null {
  const result: ScanResult = { sources: [], configs: [], dirs: [], tooBig: [] };
  const stack: { dir: string; above: DirRules }[] = [{ dir: start, above }];
  while (stack.length > 0) {
    if (shouldStop()) return null;
    const { dir, above: rules } = stack.pop()!;
    const listed = listDir(root, dir, rules, view);
    if (!listed) continue;
    try {
      result.dirs.push({ path: dir, mtimeMs: statSync(dir === "." ? root : join(root, dir)).mtimeMs });
    } catch {
      continue;
    }
    for (const e of listed.entries) {
      if (e.isDir) {
        stack.push({ dir: e.path, above: { rules: listed.rules, ignored: e.ignored } });
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
