/** The HTML panels. Each reads through the engine, renders on the server, and says how long each took (Server-Timing). */
import { filtersOf, intOf, rangeOf, retrievalQueryOf } from "./params.ts";
import { memoryBody } from "./render/memory.ts";
import { overviewBody } from "./render/overview.ts";
import { codeBody, gatewayBody, pruningBody, readcacheBody } from "./render/panels.ts";
import { problem } from "./render/parts.ts";
import { retrievalsBody } from "./render/retrievals.ts";
import { type SearchView, sourceBody, sourcesBody } from "./render/sources.ts";
import { memoryView, timer } from "./views.ts";
import type { WebApp } from "./web-app.ts";

/** Lines per page of the source view. */
const SOURCE_PAGE_LINES = 2000;
const SOURCE_PAGE_BYTES = 512 * 1024;

export function registerPages(web: WebApp): void {
  const { app, o } = web;
  const e = o.engine;

  app.get("/", async (c) => {
    const gone = web.missing(c, false);
    if (gone) return gone;
    const t = timer();
    const f = filtersOf((n) => c.req.query(n));
    const stats = await t.db(() => e.stats(f));
    const usage = await t.db(() => e.usage(f));
    const body = overviewBody(stats, usage, f);
    t.header(c);
    return web.page(c, "Overview", "/", body, true);
  });

  app.get("/sources", async (c) => {
    const gone = web.missing(c, false);
    if (gone) return gone;
    const t = timer();
    const q = (n: string) => c.req.query(n);
    const f = filtersOf(q);
    const limit = intOf(q, "limit", 100, 1, 1000);
    const list = await t.db(() => e.list({ tool: f.tool, session: f.session, project: f.project }, limit));
    let search: SearchView | null = null;
    const query = c.req.query("q")?.trim();
    if (query) {
      const started = performance.now();
      const r = await t.db(() => e.search({ query, tool: f.tool, session: f.session, project: f.project, source: f.source, limit: 20 }));
      search = { query, answer: r.ok ? r : null, failure: r.ok ? null : r.message, ms: performance.now() - started };
    }
    const body = sourcesBody(list, f, limit, search);
    t.header(c);
    return web.page(c, "Sources", "/sources", body);
  });

  app.get("/sources/:id", async (c) => {
    const gone = web.missing(c, false);
    if (gone) return gone;
    const t = timer();
    const id = c.req.param("id");
    const range = rangeOf((n) => c.req.query(n), SOURCE_PAGE_LINES);
    if ("bad" in range) return web.page(c, "Source", "/sources", problem("Bad line range", range.bad));
    const lines = range.lines ? clampLines(range.lines) : undefined;
    const got = await t.db(() => e.get({ source: id, chunk: range.chunk, lines, maxBytes: SOURCE_PAGE_BYTES }));
    if (!got.ok) {
      const res = web.page(c, "Source", "/sources", problem(`Source ${id}`, got.message));
      return new Response(res.body, { status: got.code === "NO_SUCH_SOURCE" ? 404 : 400, headers: res.headers });
    }
    const [info] = await t.db(() => e.list({ source: id }, 1));
    const body = sourceBody(info ?? null, got);
    t.header(c);
    return web.page(c, `Source ${id}`, "/sources", body);
  });

  app.get("/retrievals", async (c) => {
    const gone = web.missing(c, false);
    if (gone) return gone;
    const t = timer();
    const query = retrievalQueryOf((n) => c.req.query(n));
    const page = await t.db(() => e.retrievalLog(query));
    const body = retrievalsBody(page, query);
    t.header(c);
    return web.page(c, "Retrieval log", "/retrievals", body);
  });

  app.get(
    "/readcache",
    async (c) => web.missing(c, false) ?? web.page(c, "Read cache", "/readcache", readcacheBody(await e.readcacheStats())),
  );
  app.get("/code", async (c) => web.missing(c, false) ?? web.page(c, "Code index", "/code", codeBody(await e.codeIndexStats())));
  app.get("/pruning", async (c) => web.missing(c, false) ?? web.page(c, "Pruning", "/pruning", pruningBody(await e.pruneStats())));
  // The gateway is read from mcp.json and its catalog files, not from the database.
  app.get("/gateway", (c) => web.page(c, "MCP gateway", "/gateway", gatewayBody(o.gateway())));
  app.get("/memory", async (c) => {
    const gone = web.missing(c, false);
    if (gone) return gone;
    const view = await memoryView(e, c.req.query("project")?.trim() || undefined, c.req.query("q")?.trim() || undefined);
    return web.page(c, "Memory", "/memory", memoryBody(view));
  });
}

/** At most one page of lines from where the range starts. */
function clampLines(r: { from: number; to: number }): { from: number; to: number } {
  return { from: r.from, to: Math.min(r.to, r.from + SOURCE_PAGE_LINES - 1) };
}
