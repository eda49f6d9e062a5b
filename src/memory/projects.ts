/**
 * Projects and sessions as small integer ids (a million events never repeat a path). Ids never
 * change once given, so they are cached; a row another process created meanwhile is found by
 * INSERT OR IGNORE and a second read.
 */
import type { Db } from "../db/open.ts";

export type Registry = {
  /** The project's id; created when `create`, else null when the project has no memory yet. */
  project(path: string, create: boolean): number | null;
  /** The session's id in a project (`""` is "no session"), created when new. */
  session(projectId: number, name: string): number;
  /** The session's id, or null when it has no events yet (reads never write). */
  findSession(projectId: number, name: string): number | null;
  sessionName(sessionId: number): string;
  enabled(projectId: number): boolean;
  setEnabled(projectId: number, enabled: boolean): void;
  /** True while this database holds one project: filters by project can be skipped. */
  single(): boolean;
  path(projectId: number): string;
};

/** `onCreate` runs inside the transaction that created a project (its per-project state starts there). */
export function createRegistry(db: Db, onCreate: (projectId: number) => void = () => {}): Registry {
  const projects = new Map<string, number>();
  const paths = new Map<number, string>();
  const sessions = new Map<string, number>();
  const names = new Map<number, string>();
  let count: { n: number; at: number } | null = null;
  const findProject = db.query<{ id: number }, [string]>("SELECT id FROM memory_projects WHERE path = ?");
  const findSession = db.query<{ id: number }, [number, string]>("SELECT id FROM memory_sessions WHERE project_id = ? AND name = ?");
  return {
    project(path, create) {
      const cached = projects.get(path);
      if (cached !== undefined) return cached;
      let row = findProject.get(path);
      if (!row && create) {
        if (db.query("INSERT OR IGNORE INTO memory_projects (path) VALUES (?)").run(path).changes > 0) {
          row = findProject.get(path);
          onCreate(row!.id);
        }
        row = findProject.get(path);
        count = null;
      }
      if (!row) return null;
      projects.set(path, row.id);
      paths.set(row.id, path);
      return row.id;
    },
    session(projectId, name) {
      const key = `${projectId}\n${name}`;
      const cached = sessions.get(key);
      if (cached !== undefined) return cached;
      let row = findSession.get(projectId, name);
      if (!row) {
        db.query("INSERT OR IGNORE INTO memory_sessions (project_id, name) VALUES (?, ?)").run(projectId, name);
        row = findSession.get(projectId, name)!;
      }
      sessions.set(key, row.id);
      names.set(row.id, name);
      return row.id;
    },
    findSession(projectId, name) {
      const cached = sessions.get(`${projectId}\n${name}`);
      return cached ?? findSession.get(projectId, name)?.id ?? null;
    },
    sessionName(sessionId) {
      let name = names.get(sessionId);
      if (name === undefined) {
        name = db.query<{ name: string }, [number]>("SELECT name FROM memory_sessions WHERE id = ?").get(sessionId)?.name ?? "";
        names.set(sessionId, name);
      }
      return name;
    },
    enabled: (projectId) =>
      (db.query<{ enabled: number }, [number]>("SELECT enabled FROM memory_projects WHERE id = ?").get(projectId)?.enabled ?? 1) === 1,
    setEnabled: (projectId, enabled) =>
      void db.query("UPDATE memory_projects SET enabled = ? WHERE id = ?").run(enabled ? 1 : 0, projectId),
    single() {
      // Another process may add a project: look again now and then.
      if (!count || Date.now() - count.at > 5000) {
        count = { n: db.query<{ n: number }, []>("SELECT count(*) AS n FROM memory_projects").get()!.n, at: Date.now() };
      }
      return count.n <= 1;
    },
    path(projectId) {
      let path = paths.get(projectId);
      if (path === undefined) {
        path = db.query<{ path: string }, [number]>("SELECT path FROM memory_projects WHERE id = ?").get(projectId)?.path ?? "";
        paths.set(projectId, path);
      }
      return path;
    },
  };
}
