/** Reading helpers shared by the page and the API: timing the engine's part, and the memory panel's data. */
import type { Context } from "hono";
import { errorMessage } from "../../errors.ts";
import type { MemoryHit, ProjectStats } from "../../memory/index.ts";
import type { WebEngine } from "../../web-viewer.ts";
import type { MemoryView, RecentMemories } from "./render/memory.ts";

/** Times the engine's part of an answer; the rest is rendering. */
export function timer() {
  const started = performance.now();
  let dbMs = 0;
  return {
    async db<T>(fn: () => Promise<T>): Promise<T> {
      const t = performance.now();
      try {
        return await fn();
      } finally {
        dbMs += performance.now() - t;
      }
    },
    /** The Server-Timing value: the engine's part, the rest, and the whole, in ms. */
    value(): string {
      const total = performance.now() - started;
      return `db;dur=${dbMs.toFixed(1)}, render;dur=${(total - dbMs).toFixed(1)}, total;dur=${total.toFixed(1)}`;
    },
    header(c: Context): void {
      c.header("server-timing", this.value());
    },
  };
}

/** A memory failure in words; a write refused means memory had checks pending that only a writer (pi) makes. */
function memoryFailure(error: unknown): string {
  const text = errorMessage(error);
  if (/readonly|read-only/i.test(text))
    return "Memory has checks pending that only a writer makes (pi does them as it stores events); this page only reads. Search again in a moment.";
  return text;
}

/** What the memory panel shows; `available: false` when the engine has no memory. */
export async function memoryView(engine: WebEngine, project: string | undefined, query: string | undefined): Promise<MemoryView> {
  const memory = engine.memory;
  if (!memory) return { available: false };
  let projects: ProjectStats[] | null = null;
  try {
    const stats = await memory({ type: "stats" });
    if (!stats.ok) return { available: true, projects: null, failure: stats.message, search: null, recent: null };
    projects = stats.type === "stats" ? stats.projects : [];
  } catch (error) {
    return { available: true, projects: null, failure: memoryFailure(error), search: null, recent: null };
  }
  const p = project ?? projects[0]?.project ?? "";
  if (!query) return { available: true, projects, failure: null, search: null, recent: await recentOf(memory, p) };
  try {
    const found = await memory({ type: "search", project: p, query, limit: 50 });
    if (!found.ok)
      return { available: true, projects, failure: null, search: { project: p, query, hits: null, failure: found.message }, recent: null };
    const hits: MemoryHit[] = found.type === "search" ? found.hits : [];
    return { available: true, projects, failure: null, search: { project: p, query, hits, failure: null }, recent: null };
  } catch (error) {
    return {
      available: true,
      projects,
      failure: null,
      search: { project: p, query, hits: null, failure: memoryFailure(error) },
      recent: null,
    };
  }
}

/** The project's newest entries (the list under the search), or why they could not be read. */
async function recentOf(memory: NonNullable<WebEngine["memory"]>, project: string): Promise<RecentMemories | null> {
  if (project === "") return null;
  try {
    const r = await memory({ type: "recent", project, limit: 20 });
    if (!r.ok) return { project, hits: null, failure: r.message };
    return { project, hits: r.type === "recent" ? r.hits : [], failure: null };
  } catch (error) {
    return { project, hits: null, failure: memoryFailure(error) };
  }
}
