/** What memory holds, per project, and the last injections: for `memory stats`, /memory and memory_status. */
import { formatBytes, formatCount, plural } from "../units.ts";
import type { MemoryDeps } from "./deps.ts";
import { ago } from "./render.ts";
import type { InjectionInfo, ProjectStats, StatsAnswer, StatusAnswer } from "./types.ts";

type ProjectRow = { id: number; path: string; enabled: number; events: number; text_bytes: number };

function projectStats(deps: MemoryDeps, p: ProjectRow): ProjectStats {
  const { db } = deps;
  const one = (sql: string) => db.query<{ n: number }, [number]>(sql).get(p.id)?.n ?? 0;
  return {
    project: p.path,
    enabled: p.enabled === 1,
    events: p.events,
    unarchived: one("SELECT count(*) AS n FROM memory_events WHERE project_id = ? AND archived = 0"),
    summaries: one("SELECT count(*) AS n FROM memory_summaries WHERE project_id = ?"),
    sessions: one("SELECT count(*) AS n FROM memory_sessions WHERE project_id = ?"),
    textBytes: p.text_bytes,
    supersessions: one("SELECT count(*) AS n FROM memory_supersessions WHERE project_id = ?"),
  };
}

const describe = (s: ProjectStats) =>
  `${s.project}: ${plural(s.events, "event")} (${formatCount(s.unarchived)} not yet summarised), ${plural(s.summaries, "summary", "summaries")}, ` +
  `${plural(s.sessions, "session")}, ${formatBytes(s.textBytes)} of text, ${plural(s.supersessions, "replaced statement")}` +
  (s.enabled ? "" : " [memory off]");

export function memoryStats(deps: MemoryDeps, project?: string): StatsAnswer {
  const rows = deps.db
    .query<ProjectRow, []>("SELECT id, path, enabled, events, text_bytes FROM memory_projects ORDER BY id")
    .all()
    .filter((p) => project === undefined || p.path === project);
  const projects = rows.map((p) => projectStats(deps, p));
  const page = deps.db
    .query<{ n: number }, []>("SELECT (SELECT page_count FROM pragma_page_count) * (SELECT page_size FROM pragma_page_size) AS n")
    .get()!.n;
  const totals = {
    events: projects.reduce((n, p) => n + p.events, 0),
    summaries: projects.reduce((n, p) => n + p.summaries, 0),
    textBytes: projects.reduce((n, p) => n + p.textBytes, 0),
    databaseBytes: page,
  };
  const text =
    projects.length === 0
      ? project
        ? `No memory for ${project} yet.`
        : "No memory yet."
      : [...projects.map(describe), `Database file: ${formatBytes(page)} (context store and memory together).`].join("\n");
  return { type: "stats", projects, totals, text };
}

export function lastInjections(deps: MemoryDeps, projectId: number, n = 5): InjectionInfo[] {
  return deps.db
    .query<{ at: number; session: string | null; mode: string; tokens: number; items: string }, [number, number]>(
      "SELECT at, session, mode, tokens, items FROM memory_injections WHERE project_id = ? ORDER BY id DESC LIMIT ?",
    )
    .all(projectId, n)
    .map((r) => ({
      at: r.at,
      session: r.session,
      mode: r.mode === "start" ? "start" : "prompt",
      tokens: r.tokens,
      items: (JSON.parse(r.items) as unknown[]).length,
    }));
}

export function memoryStatus(deps: MemoryDeps, project: string, session: string | null): StatusAnswer {
  const projectId = deps.registry.project(project, false);
  const row =
    projectId === null
      ? null
      : deps.db
          .query<ProjectRow, [number]>("SELECT id, path, enabled, events, text_bytes FROM memory_projects WHERE id = ?")
          .get(projectId);
  const stats: ProjectStats = row
    ? projectStats(deps, row)
    : { project, enabled: true, events: 0, unarchived: 0, summaries: 0, sessions: 0, textBytes: 0, supersessions: 0 };
  const sessionId = projectId !== null && session ? deps.registry.findSession(projectId, session) : null;
  const sessionEvents =
    sessionId === null
      ? 0
      : (deps.db
          .query<{ n: number }, [number, number]>(
            "SELECT count(*) AS n FROM memory_events WHERE project_id = ? AND archived = 0 AND session_id = ?",
          )
          .get(projectId!, sessionId)?.n ?? 0);
  const injections = projectId === null ? [] : lastInjections(deps, projectId);
  const now = deps.now();
  const lines = [
    `Memory for ${project}: ${stats.enabled ? "on" : "off"}. ${describe(stats).slice(project.length + 2)}.`,
    session ? `This session: ${formatCount(sessionEvents)} events not yet summarised.` : "",
    injections.length === 0
      ? "No injections yet."
      : `Last injections: ${injections.map((i) => `${ago(i.at, now)} at ${i.mode}, ${i.items} items, ${formatCount(i.tokens)} tokens`).join("; ")}.`,
  ].filter(Boolean);
  return { type: "status", project: stats, sessionEvents, injections, text: lines.join("\n") };
}
