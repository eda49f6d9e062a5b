/**
 * The only writes: purge and forget. Each is a POST with a JSON body, the page's CSRF token in
 * `x-csrf-token`, and a confirmation: the first call (without `"confirm": true`) changes nothing
 * and answers 409 with what would go; the page asks the user, then sends it again confirmed.
 * The writing engine is opened for that one call and closed after it.
 */
import type { Context } from "hono";
import { describeRewrite, REWRITE_RUNNING } from "../../rewrite-text.ts";
import type { PurgeFilter } from "../../store/index.ts";
import { formatBytes, formatCount, parseDuration, plural } from "../../units.ts";
import type { WebWriter } from "../../web-viewer.ts";
import { sameToken } from "./guard.ts";
import { explainFailure, type WebApp } from "./web-app.ts";

const MAX_BODY = 64 * 1024;

type Body = Record<string, unknown>;

const bad = (c: Context, code: string, message: string, status = 400) => {
  // Another process held the write lock past the wait: nothing changed, and the same request may simply be sent again.
  if (code === "BUSY") c.header("retry-after", "5");
  return c.json({ ok: false, code, message }, status as 400);
};

async function bodyOf(c: Context): Promise<Body | Response> {
  if (!/^application\/json\b/i.test(c.req.header("content-type") ?? ""))
    return bad(c, "BAD_BODY", "Send a JSON body (content-type: application/json).", 415);
  const text = await c.req.text();
  if (text.length > MAX_BODY) return bad(c, "BAD_BODY", "The body is too large.", 413);
  try {
    const v = JSON.parse(text) as unknown;
    if (typeof v === "object" && v !== null && !Array.isArray(v)) return v as Body;
  } catch {
    // answered below
  }
  return bad(c, "BAD_BODY", "The body must be a JSON object.");
}

const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v.trim() : undefined);

/** Waits for the rewrite the write started (the server keeps answering meanwhile) and says how it ended. */
async function afterRewrite(w: WebWriter, note: string): Promise<string> {
  const done = await w.rewritten();
  return done ? ` ${describeRewrite(done)}` : note;
}

/** Runs one write on a writing engine opened for it. */
async function withWriter<T>(web: WebApp, fn: (w: WebWriter) => Promise<T>): Promise<T> {
  const writer = web.o.openWriter();
  try {
    return await fn(writer);
  } finally {
    await writer.close();
  }
}

function purgeFilter(b: Body): { filter: PurgeFilter; what: string } | { problem: string } {
  const olderThan = str(b.olderThan);
  const olderThanMs = olderThan === undefined ? undefined : parseDuration(olderThan);
  if (olderThanMs === null) return { problem: `olderThan takes an age like 30m, 12h, 7d or 2w, got ${JSON.stringify(olderThan)}` };
  const filter: PurgeFilter = { source: str(b.source), session: str(b.session), project: str(b.project), olderThanMs, all: b.all === true };
  const narrowing = [filter.source, filter.session, filter.project, filter.olderThanMs].filter((v) => v !== undefined).length;
  if (filter.all ? narrowing > 0 : narrowing !== 1)
    return { problem: "Purge takes one of source, session, project or olderThan, or all: true alone." };
  const what = filter.all
    ? "every stored source"
    : filter.source
      ? `source ${filter.source}`
      : filter.session
        ? `every source of session ${filter.session}`
        : filter.project
          ? `every source of project ${filter.project}`
          : `every source stored more than ${olderThan} ago`;
  return { filter, what };
}

export function registerActions(web: WebApp): void {
  const { app, o } = web;
  // The page's CSRF token must come with every write, whatever authenticated the request.
  app.use("/api/*", async (c, next) => {
    if (c.req.method === "GET" || c.req.method === "HEAD") return next();
    if (c.req.method !== "POST") return bad(c, "METHOD", "Only GET, and POST for purge and forget.", 405);
    if (!sameToken(c.req.header("x-csrf-token"), web.csrf))
      return bad(c, "CSRF", "This write needs the page's CSRF token in x-csrf-token (GET /api/csrf gives it); reload the page.", 403);
    return next();
  });

  app.post("/api/purge", async (c) => {
    const gone = web.missing(c, true);
    if (gone) return gone;
    const body = await bodyOf(c);
    if (body instanceof Response) return body;
    const p = purgeFilter(body);
    if ("problem" in p) return bad(c, "BAD_FILTER", p.problem);
    if (body.confirm !== true) {
      let preview = "";
      if (!p.filter.all && p.filter.olderThanMs === undefined) {
        const s = await o.engine.stats({ source: p.filter.source, session: p.filter.session, project: p.filter.project });
        if (s.totals.captures === 0) return bad(c, "NOTHING", `Nothing to purge: no stored source matches (${p.what}).`, 404);
        preview = ` (${plural(s.totals.captures, "capture")}, ${formatBytes(s.totals.storedBytes)} of text)`;
      }
      return c.json(
        { ok: false, code: "CONFIRM", message: `Delete ${p.what}${preview}? This cannot be undone.`, confirm: { ...body, confirm: true } },
        409,
      );
    }
    try {
      const r = await withWriter(web, async (w) => {
        const purged = await w.purge(p.filter);
        return { ...purged, rewriteNote: await afterRewrite(w, purged.note) };
      });
      const message = `Purged ${formatCount(r.sources)} source${r.sources === 1 ? "" : "s"} (${formatCount(r.blobs)} stored texts, ${formatBytes(r.bytes)}).${r.rewriteNote}`;
      return c.json({ ok: true, message, sources: r.sources, blobs: r.blobs, bytes: r.bytes });
    } catch (error) {
      const f = explainFailure(error);
      return bad(c, f.code, f.message, f.status);
    }
  });

  app.post("/api/memory/forget", async (c) => {
    const gone = web.missing(c, true);
    if (gone) return gone;
    const body = await bodyOf(c);
    if (body instanceof Response) return body;
    const project = str(body.project);
    const id = str(body.id);
    if (!project || !id) return bad(c, "BAD_INPUT", "Forget needs the project and the memory's id (e12 or s3).");
    if (!o.engine.memory) return bad(c, "NO_MEMORY", "Episodic memory is not part of this build's engine.", 404);
    if (body.confirm !== true)
      return c.json({ ok: false, code: "CONFIRM", message: `Forget memory ${id} of ${project} for good? This cannot be undone.` }, 409);
    try {
      const r = await withWriter(web, async (w) => {
        if (!w.memory) throw new Error("the writing engine has no memory");
        const forgot = await w.memory({ type: "forget", project, id });
        if (!forgot.ok || forgot.type !== "forget") return forgot;
        // The answer said the rewrite was started; the page answers once it ended, and says how it went.
        return { ...forgot, text: `${forgot.text.replace(REWRITE_RUNNING, "")}${await afterRewrite(w, "")}` };
      });
      if (!r.ok) return bad(c, r.code, r.message);
      return c.json({ ok: true, message: r.type === "forget" ? r.text : `Forgot ${id}.` });
    } catch (error) {
      const f = explainFailure(error);
      return bad(c, f.code, f.message, f.status);
    }
  });
}
