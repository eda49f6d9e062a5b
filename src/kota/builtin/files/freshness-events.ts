/**
 * What changed, from the folder watcher's events instead of a stat per indexed file: only the
 * entries the kernel named are looked at (a stat each), new folders are walked, and anything the
 * events cannot settle (a folder gone, a .gitignore changed, dropped events) asks for the full
 * check or a rescan, exactly as the stat-based check (freshness.ts) would decide.
 */
import { statSync } from "node:fs";
import { join, posix } from "node:path";
import type { FileRow, WatchRow } from "../store.ts";
import type { Detected } from "./freshness.ts";
import type { Events } from "./inotify.ts";
import {
  CONFIG_FILE,
  excludedBy,
  type FileView,
  MAX_FILE_BYTES,
  rulesAbove,
  type ScannedFile,
  SKIP_DIRS,
  SOURCE_FILE,
  scanTree,
} from "./scan.ts";

const MINIFIED = /\.min\.[cm]?js$/;

function stat(root: string, path: string): { size: number; mtimeMs: number; isDir: boolean } | null {
  try {
    const st = statSync(join(root, path));
    return { size: st.size, mtimeMs: st.mtimeMs, isDir: st.isDirectory() };
  } catch {
    return null;
  }
}

/** `full`: the events cannot vouch for the result; run the stat-based check instead. */
export function detectFromEvents(
  root: string,
  known: { get(path: string): FileRow | undefined; has(path: string): boolean },
  watched: { has(path: string): boolean },
  events: Events,
  view: FileView,
): Detected | { kind: "full" } {
  if (events.overflow) return { kind: "full" };
  const parse: ScannedFile[] = [];
  const remove: FileRow[] = [];
  const updates: WatchRow[] = [];
  const removedWatch: string[] = [];
  let configsChanged = false;
  const ignored = (path: string, isDir: boolean) => excludedBy(root, path, isDir, view) !== null;
  const seen = new Set<string>();

  for (const path of events.files) {
    const name = posix.basename(path);
    // A watched file of another name: a base config read through a package `extends` (indexer.ts).
    if (CONFIG_FILE.test(name) || watched.has(path)) {
      if (name === ".gitignore") return { kind: "rescan", reason: `${path} changed` };
      const st = stat(root, path);
      if (watched.has(path) || (st && !ignored(path, false))) {
        configsChanged = true;
        if (st) updates.push({ path, is_dir: 0, mtime_ms: st.mtimeMs });
        else removedWatch.push(path);
      }
    }
    if (!SOURCE_FILE.test(name)) continue;
    const row = known.get(path);
    const st = stat(root, path);
    if (row) {
      if (!st || st.isDir || st.size > MAX_FILE_BYTES) remove.push(row);
      else if (st.size !== row.size || st.mtimeMs !== row.mtime_ms) parse.push({ path, size: st.size, mtimeMs: st.mtimeMs });
      continue;
    }
    if (!st || st.isDir || st.size > MAX_FILE_BYTES || MINIFIED.test(name) || ignored(path, false)) continue;
    parse.push({ path, size: st.size, mtimeMs: st.mtimeMs });
    seen.add(path);
  }

  for (const dir of events.newDirs) {
    if (watched.has(dir) || SKIP_DIRS.has(posix.basename(dir)) || ignored(dir, true)) continue;
    const st = stat(root, dir);
    if (!st?.isDir) continue;
    const sub = scanTree(root, dir, rulesAbove(root, dir, view), view);
    if (!sub) continue;
    for (const s of sub.sources) if (!known.has(s.path) && !seen.has(s.path)) parse.push(s);
    for (const d of sub.dirs) updates.push({ path: d.path, is_dir: 1, mtime_ms: d.mtimeMs });
    for (const c of sub.configs) updates.push({ path: c.path, is_dir: 0, mtime_ms: c.mtimeMs });
    if (sub.configs.some((c) => c.path.endsWith(".gitignore"))) return { kind: "rescan", reason: `new ${dir}/.gitignore` };
    if (sub.configs.length > 0) configsChanged = true;
  }
  // Folder mtimes are left to the stat-based check (it reconciles them cheaply when it next runs):
  // an editor's swap file in a folder must not count as a change to the index.
  const count = parse.length + remove.length + (configsChanged ? 1 : 0);
  if (count === 0 && updates.length === 0 && removedWatch.length === 0) return { kind: "none" };
  return { kind: "changes", count, changes: { parse, remove, watch: updates, replaceWatch: false, removedWatch, configsChanged } };
}
