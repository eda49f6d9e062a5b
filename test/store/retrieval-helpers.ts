/** Shared by the retrieval tests: one output stored and indexed, its top 3 hits, and whether they show a line. */
import type { EngineDeps } from "../../src/store/engine-deps.ts";
import { type Hit, search } from "../../src/store/search/search.ts";
import { captureIndexed, testStore } from "../helpers.ts";

export async function stored(text: string): Promise<{ store: EngineDeps; source: string }> {
  const store = testStore();
  const r = await captureIndexed(store, { text, tool: "bash", force: true });
  if (!r.stored) throw new Error("not stored");
  return { store, source: r.sourceId };
}

export function top3(store: EngineDeps, source: string, query: string): Hit[] {
  const r = search(store, { query, source, limit: 3 });
  if (!r.ok) throw new Error(r.message);
  return r.hits;
}

export const shows = (hits: Hit[], line: number, text: string) =>
  hits.some((h) => h.lines.some((l) => l.line === line && l.text.includes(text)));
