/**
 * Taking the spool in (spool-file.ts): before each request the service stores the events pi's
 * capture left, file by file, in the order they were written. A file's name is recorded in the
 * transaction that stores its events, so a process that dies between storing and deleting the
 * file never stores them twice; events of a project whose memory is off are dropped.
 */
import { immediate } from "../db/open.ts";
import { errorMessage } from "../errors.ts";
import type { MemoryDeps } from "./deps.ts";
import { insertEvents, type Prepared, prepareEvent } from "./events.ts";
import { claimSpoolFile, recoverAbandoned, type SpooledEvent, spoolDir, spoolFiles, writeDisabledProjects } from "./spool-file.ts";

/** Markers of stored files are kept this long (a file is never older than a minute when re-taken). */
const MARKER_MS = 86_400_000;
/** Files taken per request: a long backlog is taken over several requests. */
const FILES_PER_CALL = 200;

export type Taken = { files: number; events: number; projects: Set<number> };

function byProject(events: SpooledEvent[]): Map<string, SpooledEvent[]> {
  const out = new Map<string, SpooledEvent[]>();
  for (const e of events) {
    const list = out.get(e.project) ?? [];
    list.push(e);
    out.set(e.project, list);
  }
  return out;
}

/** Stores one claimed file's events, unless its name was recorded (stored before a crash kept the file). */
async function store(deps: MemoryDeps, name: string, events: SpooledEvent[], taken: Taken): Promise<void> {
  const prepared = new Map<string, Prepared[]>();
  for (const [project, list] of byProject(events)) {
    const ready: Prepared[] = [];
    for (const e of list) {
      const p = await prepareEvent(deps, e, { project, session: e.session ?? null });
      if (p.ok) ready.push(p.event);
    }
    prepared.set(project, ready);
  }
  const key = `spool:${name}`;
  immediate(deps.db, () => {
    const { db } = deps;
    if (db.query("SELECT 1 FROM memory_state WHERE key = ?").get(key)) return;
    for (const [project, list] of prepared) {
      const ids = list.length === 0 ? [] : (insertEvents(deps, project, list)?.ids ?? null);
      if (ids && ids.length > 0) {
        taken.events += ids.length;
        taken.projects.add(deps.registry.project(project, false)!);
      }
    }
    const now = Date.now();
    db.query("INSERT INTO memory_state (key, value) VALUES (?, ?)").run(key, String(now));
    db.query("DELETE FROM memory_state WHERE key >= 'spool:' AND key < 'spool;' AND CAST(value AS INTEGER) < ?").run(now - MARKER_MS);
  });
}

/** Takes in what is waiting in the spool; never fails a request (problems are logged). */
export async function takeSpool(deps: MemoryDeps): Promise<Taken> {
  const taken: Taken = { files: 0, events: 0, projects: new Set() };
  const dir = spoolDir(deps.config.db);
  const files = spoolFiles(dir);
  if (files.length === 0) return taken;
  recoverAbandoned(dir);
  for (const name of files.slice(0, FILES_PER_CALL)) {
    const claimed = claimSpoolFile(dir, name);
    if (!claimed) continue;
    try {
      await store(deps, name, claimed.events, taken);
      claimed.release();
      taken.files++;
    } catch (error) {
      // Left claimed: recoverAbandoned puts it back for a later request.
      deps.log(`memory: could not take ${name} from the spool: ${errorMessage(error)}`);
      break;
    }
  }
  return taken;
}

/** Tells pi's capture which projects not to spool (memory off). */
export function publishDisabled(deps: MemoryDeps): void {
  const off = deps.db.query<{ path: string }, []>("SELECT path FROM memory_projects WHERE enabled = 0 ORDER BY path").all();
  writeDisabledProjects(
    spoolDir(deps.config.db),
    off.map((p) => p.path),
  );
}
