/**
 * Linux inotify on the indexed folders, read without blocking: a query asks the kernel what changed
 * since the last question, instead of a stat per indexed file (about 15 ms on 1,500 files here).
 * A change completed before the query is already in the kernel's queue, so nothing is missed by a
 * race with a watcher thread. Reached through bun:ffi and libc; where that is not available (not
 * Linux, no libc.so.6, FFI refused) there is no watcher and the stat-based check stays in use.
 *
 * Watches are a per-user kernel resource that editors and build tools need too, so one process
 * holds at most a budget of them across all its repositories (a quarter of the user's limit, and
 * never more than 8,192): a repository with more folders than remain is checked with a stat per file.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

const IN_MODIFY = 0x2;
const IN_ATTRIB = 0x4;
const IN_CLOSE_WRITE = 0x8;
const IN_MOVED_FROM = 0x40;
const IN_MOVED_TO = 0x80;
const IN_CREATE = 0x100;
const IN_DELETE = 0x200;
const IN_DELETE_SELF = 0x400;
const IN_MOVE_SELF = 0x800;
const IN_Q_OVERFLOW = 0x4000;
const IN_IGNORED = 0x8000;
const IN_ONLYDIR = 0x1000000;
const IN_DONT_FOLLOW = 0x2000000;
const IN_EXCL_UNLINK = 0x4000000;
const IN_ISDIR = 0x40000000;
const IN_NONBLOCK = 0x800;
const IN_CLOEXEC = 0x80000;

const MASK =
  IN_MODIFY |
  IN_ATTRIB |
  IN_CLOSE_WRITE |
  IN_MOVED_FROM |
  IN_MOVED_TO |
  IN_CREATE |
  IN_DELETE |
  IN_DELETE_SELF |
  IN_MOVE_SELF |
  IN_ONLYDIR |
  IN_DONT_FOLLOW |
  IN_EXCL_UNLINK;
const BUFFER = 64 * 1024;

export type Events = {
  /** Entries (repo-relative) that were written, created, deleted or renamed. */
  files: Set<string>;
  /** New folders inside watched ones. */
  newDirs: Set<string>;
  /** The kernel dropped events, or a watched folder went away: only a full check is sure. */
  overflow: boolean;
};

export type DirWatcher = {
  /** Watches one more folder (repo-relative); false when the kernel refuses (the watch limit). */
  add(dir: string): boolean;
  drain(): Events;
  close(): void;
};

type Libc = {
  inotify_init1(flags: number): number;
  inotify_add_watch(fd: number, path: Uint8Array, mask: number): number;
  read(fd: number, buf: Uint8Array, size: number): number;
  close(fd: number): number;
};

let libc: Libc | null | undefined;

function loadLibc(): Libc | null {
  if (libc !== undefined) return libc;
  libc = null;
  if (process.platform !== "linux" || typeof Bun === "undefined") return null;
  try {
    const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
    const lib = dlopen("libc.so.6", {
      inotify_init1: { args: [FFIType.i32], returns: FFIType.i32 },
      inotify_add_watch: { args: [FFIType.i32, FFIType.ptr, FFIType.u32], returns: FFIType.i32 },
      read: { args: [FFIType.i32, FFIType.ptr, FFIType.u64], returns: FFIType.i64_fast },
      close: { args: [FFIType.i32], returns: FFIType.i32 },
    });
    const s = lib.symbols;
    libc = {
      inotify_init1: (flags) => s.inotify_init1(flags),
      inotify_add_watch: (fd, path, mask) => s.inotify_add_watch(fd, path, mask),
      read: (fd, buf, size) => Number(s.read(fd, buf, size)),
      close: (fd) => s.close(fd),
    };
  } catch {
    libc = null;
  }
  return libc;
}

let inUse = 0;

/** Watches this process holds now (all watchers). */
export function watchesInUse(): number {
  return inUse;
}

/** The most watches one process takes: a quarter of the user's limit, at most 8,192. */
export function defaultWatchLimit(): number {
  try {
    const max = Number(readFileSync("/proc/sys/fs/inotify/max_user_watches", "utf8").trim());
    if (Number.isFinite(max) && max > 0) return Math.min(8192, Math.floor(max / 4));
  } catch {
    // not Linux, or /proc unreadable
  }
  return 2048;
}

/** Whether `n` more watches fit in the process's budget `limit`. */
export function watchesFit(n: number, limit = defaultWatchLimit()): boolean {
  return inUse + n <= limit;
}

/** A watcher over folders of `root`, or null where inotify cannot be used. `limit`: the process's budget. */
export function createDirWatcher(root: string, limit = defaultWatchLimit()): DirWatcher | null {
  const c = loadLibc();
  if (!c) return null;
  const fd = c.inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (fd < 0) return null;
  const dirs = new Map<number, string>();
  const buf = new Uint8Array(BUFFER);
  const view = new DataView(buf.buffer);
  const encoder = new TextEncoder();
  const decoder = new TextDecoder();
  let open = true;
  return {
    add(dir) {
      if (!open || inUse >= limit) return false;
      const wd = c.inotify_add_watch(fd, encoder.encode(`${dir === "." ? root : join(root, dir)}\0`), MASK);
      if (wd < 0) return false;
      if (!dirs.has(wd)) inUse++;
      dirs.set(wd, dir);
      return true;
    },
    drain() {
      const events: Events = { files: new Set(), newDirs: new Set(), overflow: false };
      if (!open) return { ...events, overflow: true };
      for (;;) {
        const n = c.read(fd, buf, BUFFER);
        if (n <= 0) break;
        for (let at = 0; at + 16 <= n; ) {
          const wd = view.getInt32(at, true);
          const mask = view.getUint32(at + 4, true);
          const len = view.getUint32(at + 12, true);
          let end = at + 16;
          while (end < at + 16 + len && buf[end] !== 0) end++;
          const name = decoder.decode(buf.subarray(at + 16, end));
          at += 16 + len;
          if (mask & IN_Q_OVERFLOW) {
            events.overflow = true;
            continue;
          }
          const dir = dirs.get(wd);
          if (dir === undefined) continue;
          if (mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
            if (mask & IN_IGNORED && dirs.delete(wd)) inUse--;
            events.overflow = true;
            continue;
          }
          if (!name) continue;
          const path = dir === "." ? name : `${dir}/${name}`;
          if (mask & IN_ISDIR) {
            if (mask & (IN_CREATE | IN_MOVED_TO)) events.newDirs.add(path);
            // A folder deleted or moved away takes its files with it: the full check finds them all.
            else if (mask & (IN_DELETE | IN_MOVED_FROM)) events.overflow = true;
            continue;
          }
          events.files.add(path);
        }
      }
      return events;
    },
    close() {
      if (!open) return;
      open = false;
      inUse -= dirs.size;
      dirs.clear();
      c.close(fd);
    },
  };
}
