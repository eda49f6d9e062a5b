/** The newest events of a project, newest first, each with the later event that replaced it (the page's list). */
import type { MemoryDeps } from "./deps.ts";
import type { EventKind, MemoryHit } from "./types.ts";

type Row = { id: number; kind: EventKind; ts: number; session_id: number; content: string; replaced_by: number | null };

export function recentMemories(deps: MemoryDeps, projectId: number, limit: number): MemoryHit[] {
  return deps.db
    .query<Row, [number, number]>(
      `SELECT e.id, e.kind, e.ts, e.session_id, e.content,
         (SELECT max(x.new_id) FROM memory_supersessions x WHERE x.old_id = e.id) AS replaced_by
       FROM memory_events e WHERE e.project_id = ? ORDER BY e.id DESC LIMIT ?`,
    )
    .all(projectId, limit)
    .map((r) => ({
      id: `e${r.id}`,
      type: "event",
      kind: r.kind,
      ts: r.ts,
      session: deps.registry.sessionName(r.session_id) || null,
      text: r.content,
      score: 0,
      supersededBy: r.replaced_by === null ? null : `e${r.replaced_by}`,
    }));
}
