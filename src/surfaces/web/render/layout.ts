/** The page around every panel: header, navigation, theme switch, live-update status, the confirm dialog. */
import { assets } from "../assets.ts";
import { type Html, html } from "../html.ts";

export const PANELS = [
  { path: "/", title: "Overview" },
  { path: "/sources", title: "Sources" },
  { path: "/retrievals", title: "Retrieval log" },
  { path: "/readcache", title: "Read cache" },
  { path: "/gateway", title: "MCP gateway" },
  { path: "/code", title: "Code index" },
  { path: "/pruning", title: "Pruning" },
  { path: "/memory", title: "Memory" },
] as const;

export type PanelPath = (typeof PANELS)[number]["path"];

export type PageInput = { title: string; active: PanelPath | null; body: Html; csrf: string; database: string; chart?: boolean };

export function layout(p: PageInput): Html {
  const a = assets();
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="csrf-token" content="${p.csrf}">
<meta name="referrer" content="no-referrer">
<title>${p.title} · pi-sidecar</title>
<link rel="stylesheet" href="${a.appCss.path}">
${p.chart ? html`<link rel="stylesheet" href="${a.uplotCss.path}"><script defer src="${a.uplotJs.path}"></script>` : ""}
<script src="${a.appJs.path}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<h1>pi-sidecar</h1>
<nav aria-label="Panels"><ul>
${PANELS.map((x) => html`<li><a href="${x.path}"${x.path === p.active ? html` aria-current="page"` : ""}>${x.title}</a></li>`)}
</ul></nav>
<div class="tools"><span title="${p.database}">${shortPath(p.database)}</span><span id="live" role="status" aria-live="polite">static</span><button type="button" id="theme">theme: auto</button></div>
</header>
<main id="main" tabindex="-1">
${p.body}
</main>
<dialog id="confirm" aria-labelledby="confirm-title"><form method="dialog"><h2 id="confirm-title">Are you sure?</h2><p></p>
<button value="no" autofocus>Cancel</button> <button value="yes" class="danger">Yes, delete</button></form></dialog>
</body>
</html>`;
}

/**
 * What a page load without the token gets: no data (no database path, no CSRF token), the page's
 * script and styles. The script fetches the page asked for with the token this origin keeps, or
 * says how to get one.
 */
export function shell(): Html {
  const a = assets();
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="pi-sidecar-shell" content="1">
<meta name="referrer" content="no-referrer">
<title>pi-sidecar</title>
<link rel="stylesheet" href="${a.appCss.path}">
<script src="${a.appJs.path}"></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<h1>pi-sidecar</h1>
<nav aria-label="Panels"><ul>
${PANELS.map((x) => html`<li><a href="${x.path}">${x.title}</a></li>`)}
</ul></nav>
</header>
<main id="main" tabindex="-1">
<p id="shell-status" role="status">Loading…</p>
<noscript><p>This page needs JavaScript: it keeps the token of the URL <code>pi-sidecar web</code> printed in this browser, for this server's port only, and sends it with each request.</p></noscript>
</main>
</body>
</html>`;
}

function shortPath(path: string): string {
  return path.length > 48 ? `…${path.slice(-47)}` : path;
}
