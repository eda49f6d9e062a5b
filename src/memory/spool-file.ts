/**
 * The spool: where pi's automatic capture leaves events without starting the engine (a quiet
 * session never starts a process or opens the database for memory). Each turn's events are one
 * small JSON Lines file, written whole (a temporary name, then renamed), so a reader never sees
 * half a file. The memory service takes the files in on its next request (spool.ts); whoever
 * renames a file first owns it, so two processes never import the same events.
 *
 * Only node:fs here: the pi extension's bundle loads this file at pi's start.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sha256 } from "../hash.ts";

export type SpooledEvent = { project: string; session: string | null; kind: string; text: string; ts: number };

/** Files the writer refuses to add past (nothing has taken the spool in for a long time). */
export const MAX_SPOOL_FILES = 2000;
const READY = ".jsonl";
const DISABLED = "disabled.json";

/** The spool folder of a database file: beside it, so two databases never share one. */
export function spoolDir(dbPath: string): string {
  return `${dbPath}-memory-spool`;
}

const PROJECTS = "projects";
const markOf = (dir: string, project: string) => join(dir, PROJECTS, sha256(project).slice(0, 24));

/**
 * Projects with memory get an empty marker file: pi offers the memory tools only where there is
 * something to recall (a file check at start, no database), so a new project pays no tool tokens.
 */
export function markProjects(dir: string, projects: Iterable<string>): void {
  try {
    for (const p of new Set(projects)) {
      const mark = markOf(dir, p);
      if (existsSync(mark)) continue;
      mkdirSync(join(dir, PROJECTS), { recursive: true, mode: 0o700 });
      writeFileSync(mark, "", { mode: 0o600 });
    }
  } catch {
    // Only the tools' visibility depends on it; /memory and the CLI work without.
  }
}

export function hasMemory(dir: string, project: string): boolean {
  return existsSync(markOf(dir, project));
}

let sequence = 0;

/** Writes one batch as one file; false (nothing written) when the spool is full or cannot be written. */
export function writeSpool(dir: string, events: readonly SpooledEvent[]): boolean {
  if (events.length === 0) return true;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (readdirSync(dir).length >= MAX_SPOOL_FILES) return false;
    const name = `${Date.now().toString(36)}-${process.pid}-${(sequence++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`;
    const tmp = join(dir, `${name}.tmp`);
    writeFileSync(tmp, `${events.map((e) => JSON.stringify(e)).join("\n")}\n`, { mode: 0o600 });
    renameSync(tmp, join(dir, `${name}${READY}`));
    markProjects(
      dir,
      events.map((e) => e.project),
    );
    return true;
  } catch {
    return false;
  }
}

/** Ready files, oldest first (names start with their time). */
export function spoolFiles(dir: string): string[] {
  if (!existsSync(dir)) return []; // the common case, asked before every request: no exception to build
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith(READY))
      .sort();
  } catch {
    return [];
  }
}

/**
 * Claims a ready file by renaming it; its events, or null when another process claimed it first.
 * `release` deletes the claimed file once its events are stored.
 */
export function claimSpoolFile(dir: string, name: string): { events: SpooledEvent[]; bad: number; release: () => void } | null {
  const claimed = join(dir, `${name}.taking-${process.pid}`);
  try {
    renameSync(join(dir, name), claimed);
  } catch {
    return null;
  }
  const events: SpooledEvent[] = [];
  let bad = 0;
  for (const line of readFileSync(claimed, "utf8").split("\n")) {
    if (line.trim() === "") continue;
    try {
      const e = JSON.parse(line) as SpooledEvent;
      if (typeof e.project === "string" && typeof e.kind === "string" && typeof e.text === "string") events.push(e);
      else bad++;
    } catch {
      bad++;
    }
  }
  return { events, bad, release: () => rmSync(claimed, { force: true }) };
}

/** Claimed files whose process died before storing them go back to ready after a minute. */
export function recoverAbandoned(dir: string, now = Date.now()): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const f of names) {
    const m = /^(.*\.jsonl)\.taking-(\d+)$/.exec(f);
    const stale = f.endsWith(".tmp") || m !== null;
    if (!stale) continue;
    try {
      if (now - statSync(join(dir, f)).mtimeMs < 60_000) continue;
      if (m) renameSync(join(dir, f), join(dir, m[1]!));
      else rmSync(join(dir, f), { force: true });
    } catch {
      // another process is recovering it
    }
  }
}

/** Projects whose memory is off, as the service last wrote them (the writer skips them). */
export function disabledProjects(dir: string): Set<string> {
  try {
    const list = JSON.parse(readFileSync(join(dir, DISABLED), "utf8"));
    return new Set(Array.isArray(list) ? list.filter((p): p is string => typeof p === "string") : []);
  } catch {
    return new Set();
  }
}

export function writeDisabledProjects(dir: string, projects: readonly string[]): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `${DISABLED}.${process.pid}.tmp`);
    writeFileSync(tmp, JSON.stringify(projects), { mode: 0o600 });
    renameSync(tmp, join(dir, DISABLED));
  } catch {
    // the writer then spools events the service drops on import
  }
}
