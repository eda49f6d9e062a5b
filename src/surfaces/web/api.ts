/**
 * The JSON API under /api/, behind the same token as the page: what each panel shows, as the
 * engine answers it. /api/stats is exactly `pi-sidecar stats --json` (same filters as query
 * parameters). Failures are {ok: false, code, message} with a status that fits.
 */
import type { Context } from "hono";
import type { Result } from "../../errors.ts";
import { filtersOf, intOf, rangeOf, retrievalQueryOf } from "./params.ts";
import { memoryView, timer } from "./views.ts";
import type { WebApp } from "./web-app.ts";

const STATUS: Record<string, number> = { NO_SUCH_SOURCE: 404 };

function answer<T extends object>(c: Context, r: Result<T>): Response {
  if (r.ok) return c.json(r);
  return c.json(r, (STATUS[r.code] ?? 400) as 400);
}

export function registerApi(web: WebApp): void {
  const { app, o } = web;
  const e = o.engine;
  const q = (c: Context) => (n: string) => c.req.query(n);
  // Each reads the database: when it is missing, say so instead.
  const read = (fn: (c: Context) => Promise<Response>) => async (c: Context) => {
    const gone = web.missing(c, true);
    if (gone) return gone;
    const t = timer();
    const res = await t.db(() => fn(c));
    res.headers.set("server-timing", t.value());
    return res;
  };

  app.get("/api/csrf", (c) => c.json({ csrf: web.csrf }));
  app.get(
    "/api/stats",
    read(async (c) => c.json(await e.stats(filtersOf(q(c))))),
  );
  app.get(
    "/api/usage",
    read(async (c) =>
      c.json(await e.usage({ ...filtersOf(q(c)), bucketMs: intOf(q(c), "bucketMs", 0, 0, 366 * 86_400_000) || undefined })),
    ),
  );
  app.get(
    "/api/sources",
    read(async (c) => {
      const f = filtersOf(q(c));
      return c.json(
        await e.list({ tool: f.tool, session: f.session, project: f.project, source: f.source }, intOf(q(c), "limit", 100, 1, 1000)),
      );
    }),
  );
  app.get(
    "/api/sources/:id",
    read(async (c) => {
      const range = rangeOf(q(c), Number.MAX_SAFE_INTEGER);
      if ("bad" in range) return c.json({ ok: false, code: "BAD_RANGE", message: range.bad }, 400);
      const explicit = c.req.query("lines") !== undefined || c.req.query("chunk") !== undefined;
      const maxBytes = intOf(q(c), "maxBytes", 0, 1, 16 * 1024 * 1024) || undefined;
      return answer(c, await e.get({ source: c.req.param("id") ?? "", ...(explicit ? range : {}), maxBytes }));
    }),
  );
  app.get(
    "/api/search",
    read(async (c) => {
      const query = c.req.query("q")?.trim();
      if (!query) return c.json({ ok: false, code: "NO_QUERY", message: "Give the words to search for: /api/search?q=WORDS" }, 400);
      const f = filtersOf(q(c));
      return answer(c, await e.search({ query, ...f, limit: intOf(q(c), "limit", 10, 1, 100) }));
    }),
  );
  app.get(
    "/api/retrievals",
    read(async (c) => c.json(await e.retrievalLog(retrievalQueryOf(q(c))))),
  );
  app.get(
    "/api/readcache",
    read(async (c) => c.json(await e.readcacheStats())),
  );
  app.get(
    "/api/pruning",
    read(async (c) => c.json(await e.pruneStats())),
  );
  app.get(
    "/api/code",
    read(async (c) => c.json(await e.codeIndexStats())),
  );
  app.get("/api/gateway", (c) => {
    const t = timer();
    const res = c.json(o.gateway());
    res.headers.set("server-timing", t.value());
    return res;
  });
  app.get(
    "/api/memory",
    read(async (c) => c.json(await memoryView(e, c.req.query("project")?.trim() || undefined, c.req.query("q")?.trim() || undefined))),
  );
}
