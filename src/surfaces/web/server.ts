/**
 * `pi-sidecar web`: a local page over the store, served on 127.0.0.1 only. Every request must
 * name this server's own loopback host (DNS rebinding), come from no other origin, and carry the
 * run's token: as a bearer header, or as `?token=` (the printed URL). No cookie ever holds it: a
 * browser sends a host's cookies to every port of that host, so any other local server would
 * receive it. The page keeps the token in its own origin's storage (no other port can read it)
 * and sends it as a header; a page load without it gets the shell, whose script fetches the page
 * with the header. No CORS. Everything is read-only except purge and forget: POST with the page's
 * CSRF token, confirmed twice.
 */
import { existsSync } from "node:fs";
import { type Context, Hono } from "hono";
import { errorMessage, fail, type Result } from "../../errors.ts";
import { registerActions } from "./actions.ts";
import { registerApi } from "./api.ts";
import { assets } from "./assets.ts";
import { type ChangeWatch, createChangeWatch } from "./events.ts";
import { foreignRequest, newToken, presentedToken, sameToken } from "./guard.ts";
import { registerPages } from "./pages.ts";
import { layout, shell } from "./render/layout.ts";
import { problem } from "./render/parts.ts";
import { explainFailure, type WebApp, type WebOptions, type WebServer } from "./web-app.ts";

const HEADERS: Record<string, string> = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-opener-policy": "same-origin",
  "cross-origin-resource-policy": "same-origin",
};

/** Pages and JSON go gzipped to a client that accepts it (a few ms for a few times fewer bytes); live-update streams never. */
async function compress(c: Context): Promise<void> {
  const res = c.res;
  const type = res.headers.get("content-type") ?? "";
  if (res.headers.has("content-encoding") || !/^(text\/html|application\/json)/.test(type)) return;
  if (!/\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) return;
  const body = new Uint8Array(await res.arrayBuffer());
  const headers = new Headers(res.headers);
  headers.delete("content-length");
  headers.set("vary", "accept-encoding");
  let out: Uint8Array = body;
  if (body.length >= 1024) {
    out = Bun.gzipSync(body, { level: 6 });
    headers.set("content-encoding", "gzip");
  }
  // Unset first: hono would copy the old answer's headers onto the new one.
  c.res = undefined as unknown as Response;
  c.res = new Response(out, { status: res.status, headers });
}

const isApi = (path: string) => path === "/api" || path.startsWith("/api/");

function buildApp(o: WebOptions, port: () => number, watch: ChangeWatch): WebApp {
  const app = new Hono();
  const csrf = newToken();
  const log = o.log ?? (() => {});
  const web: WebApp = {
    app,
    o,
    csrf,
    missing(c, api) {
      if (existsSync(o.database)) return null;
      const message = `No database at ${o.database} yet.`;
      const hint =
        "It is created when pi (with pi-sidecar) stores its first output, or by a pi-sidecar command that writes. If pi uses another file, " +
        "start this page with --db PATH (or PI_SIDECAR_DB). This page picks the file up once it exists: reload.";
      if (api) return c.json({ ok: false, code: "DB_MISSING", message: `${message} ${hint}` }, 503);
      return web.page(c, "No database", null, problem("No database yet", message, hint));
    },
    page(c, title, active, body, chart = false) {
      const fragment = c.req.query("fragment") === "1";
      const out = fragment ? body : layout({ title, active, body, csrf, database: o.database, chart });
      return c.html(out.__html);
    },
  };

  app.use("*", async (c, next) => {
    const foreign = foreignRequest(c.req.raw, port());
    if (foreign) return c.text(`Forbidden: ${foreign}.\n`, 403);
    await next();
    await compress(c);
    for (const [k, v] of Object.entries(HEADERS)) c.res.headers.set(k, v);
    if (!c.res.headers.has("cache-control")) c.res.headers.set("cache-control", "no-store");
  });

  // The page's own script and styles (no data in them): the shell needs them before it has the token.
  app.get("/assets/:name", (c) => {
    const a = assets().byPath.get(c.req.path);
    if (!a) return c.text("Not found.\n", 404);
    const gzip = /\bgzip\b/.test(c.req.header("accept-encoding") ?? "");
    const headers: Record<string, string> = {
      "content-type": a.type,
      "cache-control": "private, max-age=31536000, immutable",
      etag: a.etag,
      vary: "accept-encoding",
    };
    if (gzip) headers["content-encoding"] = "gzip";
    return new Response(gzip ? a.gzip : a.body, { status: 200, headers });
  });

  // Browsers ask for it on their own, without the token.
  app.get("/favicon.ico", (c) => c.body(null, 204));

  app.use("*", async (c, next) => {
    if (sameToken(presentedToken(c.req.raw), o.token)) return next();
    // A page the browser loads itself (a reload, a new tab, a bookmark) gets the shell, which holds no
    // data and is the same for everyone: its script takes the token from this origin's storage and
    // fetches the page with it.
    if (c.req.method === "GET" && !isApi(c.req.path) && /\btext\/html\b/.test(c.req.header("accept") ?? "")) return c.html(shell().__html);
    const message = "Unauthorized: open the URL pi-sidecar web printed (it carries the token), or send Authorization: Bearer TOKEN.";
    c.header("www-authenticate", "Bearer");
    if (isApi(c.req.path)) return c.json({ ok: false, code: "UNAUTHORIZED", message }, 401);
    return c.text(`${message}\n`, 401);
  });

  app.get("/api/events", (c) => watch.stream(c));
  registerPages(web);
  registerApi(web);
  registerActions(web);

  app.notFound((c) =>
    isApi(c.req.path)
      ? c.json({ ok: false, code: "NOT_FOUND", message: `No API at ${c.req.path}; see the README.` }, 404)
      : c.text("Not found.\n", 404),
  );
  app.onError((error, c) => {
    const f = explainFailure(error);
    if (f.status === 500) log(`web: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    if (isApi(c.req.path)) return c.json({ ok: false, code: f.code, message: f.message }, f.status as 500);
    const body = problem(f.status === 503 ? "The database cannot be read" : "Something went wrong", f.message);
    const res = web.page(c, "Problem", null, body);
    return new Response(res.body, { status: f.status, headers: res.headers });
  });
  return web;
}

/** Starts the server; a port in use or out of reach is a failure that says what to do. */
export function serveWeb(o: WebOptions): Result<WebServer> {
  let port = o.port;
  const watch = createChangeWatch(o.database, o.pollMs ?? 1000);
  const web = buildApp(o, () => port, watch);
  let http: ReturnType<typeof Bun.serve>;
  try {
    // idleTimeout: live-update streams stay open; they send a comment every 15 s.
    http = Bun.serve({ hostname: "127.0.0.1", port, fetch: web.app.fetch, idleTimeout: 30 });
  } catch (error) {
    watch.stop();
    const inUse = /in use|EADDRINUSE/i.test(errorMessage(error));
    return fail(
      inUse ? "PORT_IN_USE" : "CANNOT_LISTEN",
      inUse
        ? `Port ${port} on 127.0.0.1 is in use: choose another with --port N, or leave --port out for a free one.`
        : `Cannot listen on 127.0.0.1:${port}: ${errorMessage(error)}. Choose another port with --port N, or leave it out.`,
    );
  }
  port = http.port ?? port;
  return {
    ok: true,
    url: `http://127.0.0.1:${port}/?token=${o.token}`,
    port,
    token: o.token,
    stop: async () => {
      watch.stop();
      await http.stop(true);
    },
  };
}
