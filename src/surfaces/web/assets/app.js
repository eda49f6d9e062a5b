// pi-sidecar web page: the token, page loads, theme, live updates, the timeline chart, confirmed
// actions, line ranges. Plain script (no modules, no build step).
//
// The token: the printed URL carries it once (`?token=`); it is kept in this origin's storage,
// which no other port of this host can read (a cookie would be sent to every port), taken out of
// the address, and sent as an Authorization header with every request. Pages are fetched with it
// and put in place here; a load the browser makes itself (a reload, a new tab) gets the shell,
// which fetches the page it stands for.
(() => {
  const THEME_KEY = "pi-sidecar-theme";
  const TOKEN_KEY = "pi-sidecar-token";
  const root = document.documentElement;
  const stored = (key) => {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  };
  const keep = (key, value) => {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch {}
  };
  const savedTheme = () => stored(THEME_KEY) || "auto";
  const applyTheme = (t) => {
    if (t === "auto") delete root.dataset.theme;
    else root.dataset.theme = t;
  };
  applyTheme(savedTheme());

  // The printed URL: keep its token, and take it out of the address bar and history.
  const params = new URLSearchParams(location.search);
  if (params.has("token")) {
    keep(TOKEN_KEY, params.get("token"));
    params.delete("token");
    const query = params.toString();
    history.replaceState(null, "", location.pathname + (query ? `?${query}` : "") + location.hash);
  }
  const auth = () => {
    const token = stored(TOKEN_KEY);
    return token ? { authorization: `Bearer ${token}` } : {};
  };

  const csrf = () => document.querySelector('meta[name="csrf-token"]')?.getAttribute("content") || "";

  function cssVar(name) {
    return getComputedStyle(root).getPropertyValue(name).trim();
  }

  let charts = [];
  function drawCharts() {
    for (const c of charts) c.destroy();
    charts = [];
    if (typeof uPlot === "undefined") return;
    for (const el of document.querySelectorAll("[data-chart]")) {
      const source = document.getElementById(el.dataset.chart);
      if (!source) continue;
      const d = JSON.parse(source.textContent);
      if (d.t.length === 0) continue;
      el.textContent = "";
      // One bucket alone: half a bucket either side (uPlot would widen it to days).
      const one = d.t.length === 1 ? [d.t[0] - d.bucket / 2, d.t[0] + d.bucket / 2] : null;
      const axis = { stroke: cssVar("--muted"), grid: { stroke: cssVar("--line") }, ticks: { stroke: cssVar("--line") } };
      const series = (label, color) => ({
        label,
        stroke: cssVar(color),
        width: 2,
        value: (_u, v) => (v == null ? "-" : v.toLocaleString("en-US")),
      });
      const opts = {
        width: Math.max(280, el.clientWidth - 16),
        height: 260,
        scales: { x: { time: true, range: (_u, min, max) => one || [min, max] } },
        axes: [axis, { ...axis, size: 70, values: (_u, vals) => vals.map((v) => v.toLocaleString("en-US")) }],
        series: [
          {},
          series("stored", "--chart-stored"),
          series("receipts", "--chart-receipts"),
          series("retrieved", "--chart-retrieved"),
          series("net saved", "--chart-net"),
        ],
      };
      charts.push(new uPlot(opts, [d.t, d.stored, d.receipts, d.retrieved, d.net], el));
    }
  }

  function initLines() {
    const box = document.querySelector(".lines");
    const out = document.getElementById("range-link");
    if (!box || !out) return;
    let anchor = null;
    box.addEventListener("click", (e) => {
      const a = e.target.closest("a[data-line]");
      if (!a) return;
      const n = Number(a.dataset.line);
      const from = e.shiftKey && anchor !== null ? Math.min(anchor, n) : n;
      const to = e.shiftKey && anchor !== null ? Math.max(anchor, n) : n;
      if (!e.shiftKey) anchor = n;
      for (const row of box.querySelectorAll("div.selected")) row.classList.remove("selected");
      for (let i = from; i <= to; i++) document.getElementById(`L${i}`)?.classList.add("selected");
      const url = new URL(location.href);
      url.searchParams.set("lines", `${from}-${to}`);
      url.searchParams.delete("chunk");
      url.hash = `L${from}`;
      out.href = url.pathname + url.search + url.hash;
      out.textContent = `Link to lines ${from}-${to}`;
      out.hidden = false;
    });
  }

  function say(text, bad) {
    const el = document.getElementById("action-status") || document.getElementById("shell-status");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("negative", Boolean(bad));
  }

  const NEED_TOKEN =
    "This page needs the token of the URL `pi-sidecar web` printed: open that URL once in this browser (the token is kept for this server's port only).";

  /** Fetches a page with the token and puts it in place of this one; `history`: push, replace or none. */
  async function navigate(url, mode) {
    if (!stored(TOKEN_KEY)) return say(NEED_TOKEN, true);
    let r;
    try {
      r = await fetch(url, { headers: { ...auth(), accept: "text/html" } });
    } catch {
      return say("The page could not be reached: is pi-sidecar web still running?", true);
    }
    if (r.status === 401) {
      keep(TOKEN_KEY, null);
      return say(NEED_TOKEN, true);
    }
    if (!/^text\/html/.test(r.headers.get("content-type") || "")) {
      // JSON (the API behind a panel): shown as the browser shows it.
      location.assign(URL.createObjectURL(await r.blob()));
      return;
    }
    const doc = new DOMParser().parseFromString(await r.text(), "text/html");
    document.title = doc.title;
    for (const meta of doc.head.querySelectorAll("meta[name]")) {
      const mine = document.head.querySelector(`meta[name="${meta.name}"]`);
      if (mine) mine.setAttribute("content", meta.content);
      else document.head.append(meta.cloneNode());
    }
    document.head.querySelector('meta[name="pi-sidecar-shell"]')?.remove();
    // Styles and scripts this page needs that the last one did not (the chart library).
    for (const link of doc.head.querySelectorAll("link[rel=stylesheet]")) {
      if (!document.head.querySelector(`link[href="${link.getAttribute("href")}"]`)) document.head.append(link.cloneNode());
    }
    for (const s of doc.head.querySelectorAll("script[src]")) {
      if (document.head.querySelector(`script[src="${s.getAttribute("src")}"]`)) continue;
      const script = document.createElement("script");
      script.src = s.getAttribute("src");
      script.addEventListener("load", drawCharts);
      document.head.append(script);
    }
    if (mode === "push") history.pushState(null, "", url);
    else if (mode === "replace") history.replaceState(null, "", url);
    document.body.replaceWith(document.adoptNode(doc.body));
    rendered = location.pathname + location.search;
    const target = location.hash ? document.getElementById(decodeURIComponent(location.hash.slice(1))) : null;
    if (target) target.scrollIntoView();
    else if (mode === "push") window.scrollTo(0, 0);
    setup();
  }
  let rendered = location.pathname + location.search;

  /** A link or form of this page, to be fetched here rather than loaded by the browser (which would not send the token). */
  const ours = (url) => url.origin === location.origin && !url.pathname.startsWith("/assets/");

  document.addEventListener("click", (e) => {
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    const a = e.target.closest("a[href]");
    if (!a || a.target || a.hasAttribute("download")) return;
    const url = new URL(a.href, location.href);
    if (!ours(url) || (url.pathname + url.search === rendered && url.hash)) return; // a place on this page
    e.preventDefault();
    navigate(url.pathname + url.search + url.hash, "push");
  });

  window.addEventListener("popstate", () => {
    if (location.pathname + location.search === rendered) return; // only the place on the page changed
    navigate(location.pathname + location.search + location.hash, "none");
  });

  async function post(action, body) {
    const r = await fetch(action, {
      method: "POST",
      headers: { ...auth(), "content-type": "application/json", "x-csrf-token": csrf() },
      body: JSON.stringify(body),
    });
    let answer = null;
    try {
      answer = await r.json();
    } catch {
      answer = { ok: false, message: `${r.status} ${r.statusText}` };
    }
    return { status: r.status, answer };
  }

  function ask(message) {
    const dialog = document.getElementById("confirm");
    if (!dialog || typeof dialog.showModal !== "function") return Promise.resolve(window.confirm(message));
    dialog.querySelector("p").textContent = message;
    dialog.returnValue = "";
    dialog.showModal();
    return new Promise((done) => dialog.addEventListener("close", () => done(dialog.returnValue === "yes"), { once: true }));
  }

  document.addEventListener("submit", async (e) => {
    const form = e.target;
    if (!form.matches("form[data-action]")) {
      // Filters and search boxes (GET): fetched with the token like a link.
      const url = new URL(form.action, location.href);
      if (form.method !== "get" || !ours(url)) return;
      e.preventDefault();
      url.search = new URLSearchParams(new FormData(form)).toString();
      return navigate(url.pathname + url.search, "push");
    }
    e.preventDefault();
    const body = Object.fromEntries(new FormData(form).entries());
    const first = await post(form.dataset.action, body);
    if (first.status === 409 && first.answer.code === "CONFIRM") {
      if (!(await ask(first.answer.message))) return say("Nothing was changed.");
      const second = await post(form.dataset.action, { ...body, confirm: true });
      say(second.answer.message, !second.answer.ok);
      // What was deleted may be what this page shows: go where the form says.
      if (second.answer.ok && form.dataset.after) setTimeout(() => navigate(form.dataset.after, "push"), 1200);
      else if (second.answer.ok) refresh(true);
      return;
    }
    say(first.answer.message, !first.answer.ok);
  });

  let pending = false;
  const busy = () => {
    const a = document.activeElement;
    return document.querySelector("dialog[open]") !== null || (a && a.tagName === "INPUT" && a.closest("main") !== null);
  };
  async function refresh(force) {
    if (!force && (busy() || document.visibilityState !== "visible")) {
      pending = true;
      return;
    }
    pending = false;
    const url = new URL(location.href);
    url.searchParams.set("fragment", "1");
    const r = await fetch(url, { headers: { ...auth(), accept: "text/html" } });
    if (!r.ok) return;
    const main = document.querySelector("main");
    const y = window.scrollY;
    main.innerHTML = await r.text();
    window.scrollTo(0, y);
    init();
    status = `updated ${new Date().toLocaleTimeString()}`;
    showStatus();
  }

  // Live updates: the server's event stream, read with fetch (EventSource cannot send the token).
  let status = "static";
  const showStatus = () => {
    const live = document.getElementById("live");
    if (live) live.textContent = status;
  };
  async function listen() {
    for (let delay = 1000; ; delay = Math.min(delay * 2, 15_000)) {
      try {
        const r = await fetch("/api/events", { headers: { ...auth(), accept: "text/event-stream" }, cache: "no-store" });
        if (r.ok && r.body) {
          status = "live";
          showStatus();
          delay = 1000;
          const reader = r.body.pipeThrough(new TextDecoderStream()).getReader();
          let buffer = "";
          for (;;) {
            const { value, done } = await reader.read();
            if (done) break;
            buffer += value;
            for (let end = buffer.indexOf("\n\n"); end !== -1; end = buffer.indexOf("\n\n")) {
              if (/^event: change$/m.test(buffer.slice(0, end))) refresh(false);
              buffer = buffer.slice(end + 2);
            }
          }
        }
      } catch {}
      status = "reconnecting...";
      showStatus();
      await new Promise((done) => setTimeout(done, delay));
    }
  }
  document.addEventListener("visibilitychange", () => pending && refresh(false));
  document.addEventListener("focusout", () => setTimeout(() => pending && refresh(false), 0));

  function init() {
    drawCharts();
    initLines();
  }

  /** What each page needs once it is in place. */
  function setup() {
    const button = document.getElementById("theme");
    if (button) {
      const label = () => {
        button.textContent = `theme: ${savedTheme()}`;
      };
      label();
      button.addEventListener("click", () => {
        const next = { auto: "light", light: "dark", dark: "auto" }[savedTheme()] || "auto";
        keep(THEME_KEY, next);
        applyTheme(next);
        label();
        drawCharts();
      });
    }
    showStatus();
    init();
  }

  document.addEventListener("DOMContentLoaded", () => {
    document.addEventListener("keydown", (e) => {
      if (e.key !== "/" || e.target.closest("input, textarea, select")) return;
      const search = document.querySelector('input[type="search"]');
      if (search) {
        e.preventDefault();
        search.focus();
      }
    });
    let resizeTimer = null;
    window.addEventListener("resize", () => {
      clearTimeout(resizeTimer);
      resizeTimer = setTimeout(drawCharts, 150);
    });
    if (document.querySelector('meta[name="pi-sidecar-shell"]')) navigate(location.pathname + location.search + location.hash, "none");
    else setup();
    if (stored(TOKEN_KEY)) listen();
  });
})();
