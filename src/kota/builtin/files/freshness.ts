/**
 * Notices what changed on disk since the last index run without walking the whole tree: one stat
 * per indexed file (modified, deleted), per watched config file, and per folder (a new file changes
 * its folder's mtime, so only changed folders are listed again).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Changes } from "../indexer.ts";
import type { CodeStore, FileRow, RepoRow, WatchRow } from "../store.ts";
import { CONFIG_FILE, type FileView, listDir, MAX_FILE_BYTES, rulesAbove, type ScannedFile, SOURCE_FILE, scanTree } from "./scan.ts";

export type Detected = { kind: "none" } | { kind: "rescan"; reason: string } | { kind: "changes"; changes: Changes; count: number };

function stat(root: string, path: string): { size: number; mtimeMs: number; isDir: boolean } | null {
  try {
    const st = statSync(path === "." ? root : join(root, path));
    return { size: st.size, mtimeMs: st.mtimeMs, isDir: st.isDirectory() };
  } catch {
    return null;
  }
}

export function detectChanges(store: CodeStore, root: string, repo: RepoRow, files: FileRow[], view: FileView): Detected {
  const known = new Map(files.map((f) => [f.path, f]));
  const parse: ScannedFile[] = [];
  const remove: FileRow[] = [];
  for (const f of files) {
    const st = stat(root, f.path);
    if (!st || st.isDir || st.size > MAX_FILE_BYTES) remove.push(f);
    else if (st.size !== f.size || st.mtimeMs !== f.mtime_ms) parse.push({ path: f.path, size: st.size, mtimeMs: st.mtimeMs });
  }
  const watch = store.watch(repo.id);
  const watched = new Set(watch.map((w) => w.path));
  const updates: WatchRow[] = [];
  const removedWatch: string[] = [];
  let configsChanged = false;
  const seen = new Set(parse.map((p) => p.path));
  for (const w of watch) {
    const st = stat(root, w.path);
    if (w.is_dir === 0) {
      if (st && st.mtimeMs === w.mtime_ms) continue;
      // An ignore file decides which files exist for the index: only a full walk gets that right.
      if (w.path.endsWith(".gitignore")) return { kind: "rescan", reason: `${w.path} changed` };
      configsChanged = true;
      if (st) updates.push({ path: w.path, is_dir: 0, mtime_ms: st.mtimeMs });
      else removedWatch.push(w.path);
      continue;
    }
    if (!st) {
      removedWatch.push(w.path);
      continue;
    }
    if (st.mtimeMs === w.mtime_ms) continue;
    updates.push({ path: w.path, is_dir: 1, mtime_ms: st.mtimeMs });
    const above = rulesAbove(root, w.path, view);
    const listed = listDir(root, w.path, above, view);
    if (!listed) continue;
    for (const e of listed.entries) {
      if (e.isDir) {
        if (watched.has(e.path)) continue;
        const sub = scanTree(root, e.path, { rules: listed.rules, ignored: e.ignored }, view);
        if (!sub) continue;
        for (const s of sub.sources) if (!known.has(s.path) && !seen.has(s.path)) parse.push(s);
        for (const d of sub.dirs) updates.push({ path: d.path, is_dir: 1, mtime_ms: d.mtimeMs });
        for (const c of sub.configs) updates.push({ path: c.path, is_dir: 0, mtime_ms: c.mtimeMs });
        if (sub.configs.length > 0) configsChanged = true;
        if (sub.configs.some((c) => c.path.endsWith(".gitignore"))) return { kind: "rescan", reason: `new ${sub.configs[0]!.path}` };
        continue;
      }
      if (CONFIG_FILE.test(e.name) && !watched.has(e.path)) {
        if (e.name === ".gitignore") return { kind: "rescan", reason: `new ${e.path}` };
        const st2 = stat(root, e.path);
        if (st2) updates.push({ path: e.path, is_dir: 0, mtime_ms: st2.mtimeMs });
        configsChanged = true;
      }
      if (SOURCE_FILE.test(e.name) && !known.has(e.path) && !seen.has(e.path)) {
        const st2 = stat(root, e.path);
        if (st2 && st2.size <= MAX_FILE_BYTES) {
          parse.push({ path: e.path, size: st2.size, mtimeMs: st2.mtimeMs });
          seen.add(e.path);
        }
      }
    }
  }
  const count = parse.length + remove.length + (configsChanged ? 1 : 0);
  if (count === 0 && updates.length === 0 && removedWatch.length === 0) return { kind: "none" };
  return { kind: "changes", count, changes: { parse, remove, watch: updates, replaceWatch: false, removedWatch, configsChanged } };
}
