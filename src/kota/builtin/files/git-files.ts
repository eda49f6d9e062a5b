/**
 * What git says about a work tree, read from its own files (no git process): the tracked paths from
 * the index (.git/index, versions 2-4), and the ignore rules that live outside the tree
 * (.git/info/exclude and core.excludesFile). git lists tracked files whatever the ignore rules say,
 * so the walker keeps a tracked file even where a .gitignore matches it, and enters an ignored
 * folder when something in it is tracked. Read again when the index file changes.
 */
import { readFileSync, statSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, isAbsolute, join, relative, resolve } from "node:path";
import { type IgnoreRule, parseGitignore } from "./gitignore.ts";

export type GitView = {
  /** Tracked files, relative to the repository root we index. */
  tracked: Set<string>;
  /** Every folder that holds a tracked file, at any depth ("." excluded). */
  trackedDirs: Set<string>;
  /** .git/info/exclude and core.excludesFile, as rules of the root folder. */
  excludes: IgnoreRule[];
};

/** The git directory of the work tree that contains `root` and `root`'s path inside that tree. */
function findGitDir(root: string): { gitDir: string; commonDir: string; prefix: string } | null {
  for (let dir = root; ; dir = dirname(dir)) {
    const dotGit = join(dir, ".git");
    let gitDir: string | null = null;
    try {
      const st = statSync(dotGit);
      if (st.isDirectory()) gitDir = dotGit;
      else {
        // A worktree or submodule: `gitdir: <path>`.
        const m = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSync(dotGit, "utf8"));
        if (m) gitDir = resolve(dir, m[1]!);
      }
    } catch {
      gitDir = null;
    }
    if (gitDir) {
      let commonDir = gitDir;
      try {
        commonDir = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
      } catch {
        // not a linked worktree
      }
      const prefix = relative(dir, root).replace(/\\/g, "/");
      return { gitDir, commonDir, prefix };
    }
    if (dirname(dir) === dir) return null;
  }
}

/** Paths in the index (stage 0 or not; gitlinks and sparse folders left out). Null when unreadable. */
export function readIndexPaths(buf: Buffer, hashBytes = 20): string[] | null {
  if (buf.length < 12 || buf.toString("latin1", 0, 4) !== "DIRC") return null;
  const version = buf.readUInt32BE(4);
  if (version < 2 || version > 4) return null;
  const count = buf.readUInt32BE(8);
  const out: string[] = [];
  let at = 12;
  let previous: Buffer = Buffer.alloc(0);
  for (let i = 0; i < count; i++) {
    const start = at;
    if (at + 40 + hashBytes + 2 > buf.length) return null;
    const mode = buf.readUInt32BE(at + 24);
    at += 40 + hashBytes;
    const flags = buf.readUInt16BE(at);
    at += 2;
    if (version >= 3 && flags & 0x4000) at += 2;
    let name: Buffer;
    if (version === 4) {
      // The path shares a prefix with the previous one: drop N bytes from its end, append the rest.
      let c = buf[at++]!;
      let drop = c & 127;
      while (c & 128) {
        c = buf[at++]!;
        drop = ((drop + 1) << 7) + (c & 127);
      }
      const end = buf.indexOf(0, at);
      if (end === -1) return null;
      name = Buffer.concat([previous.subarray(0, previous.length - drop), buf.subarray(at, end)]);
      at = end + 1;
    } else {
      const end = buf.indexOf(0, at);
      if (end === -1) return null;
      name = buf.subarray(at, end);
      // Entries are padded with 1-8 NULs to a multiple of 8 bytes.
      at = start + Math.ceil((end - start + 1) / 8) * 8;
    }
    previous = name;
    const type = mode >>> 12;
    if (type === 0o16 || type === 0o04) continue; // a submodule, or a folder of a sparse index
    out.push(name.toString("utf8"));
  }
  return out;
}

function gitConfigValue(text: string, section: string, key: string): string | null {
  let inSection = false;
  let value: string | null = null;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    const head = /^\[\s*([^\]\s"]+)(?:\s+"[^"]*")?\s*\]/.exec(line);
    if (head) {
      inSection = head[1]!.toLowerCase() === section;
      continue;
    }
    if (!inSection) continue;
    const kv = /^([A-Za-z][\w-]*)\s*=\s*(.*)$/.exec(line);
    if (kv && kv[1]!.toLowerCase() === key) value = kv[2]!.replace(/^"(.*)"$/, "$1").trim();
  }
  return value;
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
}

/** core.excludesFile as git finds it: the repository's config, then the user's; else XDG's git/ignore. */
function excludesFile(commonDir: string, home: string, env: Record<string, string | undefined>): string {
  const xdg = env.XDG_CONFIG_HOME || join(home, ".config");
  const configs = [join(commonDir, "config"), join(home, ".gitconfig"), join(xdg, "git", "config")];
  for (const c of configs) {
    const text = readText(c);
    const v = text === null ? null : gitConfigValue(text, "core", "excludesfile");
    if (v) return v.startsWith("~/") ? join(home, v.slice(2)) : isAbsolute(v) ? v : resolve(dirname(c), v);
  }
  return join(xdg, "git", "ignore");
}

const cache = new Map<string, { stamp: string; view: GitView }>();

/** Git's view of the work tree holding `root`, or null when `root` is not in one. */
export function gitView(root: string, home = homedir(), env: Record<string, string | undefined> = process.env): GitView | null {
  const found = findGitDir(root);
  if (!found) return null;
  const indexPath = join(found.gitDir, "index");
  const exclude = join(found.commonDir, "info", "exclude");
  const global = excludesFile(found.commonDir, home, env);
  const mtime = (p: string) => {
    try {
      return statSync(p).mtimeMs;
    } catch {
      return -1;
    }
  };
  const stamp = `${mtime(indexPath)}:${mtime(exclude)}:${global}:${mtime(global)}`;
  const hit = cache.get(root);
  if (hit?.stamp === stamp) return hit.view;
  let paths: string[] = [];
  try {
    const objectFormat = gitConfigValue(readText(join(found.commonDir, "config")) ?? "", "extensions", "objectformat");
    paths = readIndexPaths(readFileSync(indexPath), objectFormat === "sha256" ? 32 : 20) ?? [];
  } catch {
    paths = []; // no index yet (a fresh `git init`): nothing is tracked
  }
  const prefix = found.prefix ? `${found.prefix}/` : "";
  const tracked = new Set<string>();
  const trackedDirs = new Set<string>();
  for (const p of paths) {
    if (prefix && !p.startsWith(prefix)) continue;
    const rel = p.slice(prefix.length);
    tracked.add(rel);
    for (let slash = rel.lastIndexOf("/"); slash > 0; slash = rel.lastIndexOf("/", slash - 1)) {
      const dir = rel.slice(0, slash);
      if (trackedDirs.has(dir)) break;
      trackedDirs.add(dir);
    }
  }
  // Rules from outside the tree apply to the whole repository, as if written in its root .gitignore.
  const excludes = [...parseGitignore(readText(global) ?? "", "."), ...parseGitignore(readText(exclude) ?? "", ".")];
  const view = { tracked, trackedDirs, excludes };
  if (cache.size > 16) cache.clear();
  cache.set(root, { stamp, view });
  return view;
}
