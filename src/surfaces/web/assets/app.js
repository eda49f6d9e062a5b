// pi-sidecar web page: theme, live updates, the timeline chart, confirmed actions, line ranges.
// Plain script (no modules, no build step); the page works without it, minus these.
(() => {
  const THEME_KEY = "pi-sidecar-theme";
  const root = document.documentElement;
  const savedTheme = () => {
    try {
      return localStorage.getItem(THEME_KEY) || "auto";
    } catch {
      return "auto";
    }
  };
  const applyTheme = (t) => {
    if (t === "auto") delete root.dataset.theme;
    else root.dataset.theme = t;
  };
  applyTheme(savedTheme());

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

  async function post(action, body) {
    const r = await fetch(action, {
      method: "POST",
      headers: { "content-type": "application/json", "x-csrf-token": csrf() },
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

  function say(text, bad) {
    const el = document.getElementById("action-status");
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("negative", Boolean(bad));
  }

  document.addEventListener("submit", async (e) => {
    const form = e.target.closest("form[data-action]");
    if (!form) return;
    e.preventDefault();
    const body = Object.fromEntries(new FormData(form).entries());
    const first = await post(form.dataset.action, body);
    if (first.status === 409 && first.answer.code === "CONFIRM") {
      if (!(await ask(first.answer.message))) return say("Nothing was changed.");
      const second = await post(form.dataset.action, { ...body, confirm: true });
      say(second.answer.message, !second.answer.ok);
      // What was deleted may be what this page shows: go where the form says.
      if (second.answer.ok && form.dataset.after) setTimeout(() => location.assign(form.dataset.after), 1200);
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
    const r = await fetch(url, { headers: { accept: "text/html" } });
    if (!r.ok) return;
    const main = document.querySelector("main");
    const y = window.scrollY;
    main.innerHTML = await r.text();
    window.scrollTo(0, y);
    init();
    const live = document.getElementById("live");
    if (live) live.textContent = `updated ${new Date().toLocaleTimeString()}`;
  }

  function listen() {
    const live = document.getElementById("live");
    if (typeof EventSource === "undefined" || !live) return;
    const events = new EventSource("/api/events");
    events.addEventListener("open", () => {
      live.textContent = "live";
    });
    events.addEventListener("change", () => refresh(false));
    events.addEventListener("error", () => {
      live.textContent = "reconnecting...";
    });
    document.addEventListener("visibilitychange", () => pending && refresh(false));
    document.addEventListener("focusout", () => setTimeout(() => pending && refresh(false), 0));
  }

  function init() {
    drawCharts();
    initLines();
  }

  document.addEventListener("DOMContentLoaded", () => {
    const button = document.getElementById("theme");
    if (button) {
      const label = () => {
        button.textContent = `theme: ${savedTheme()}`;
      };
      label();
      button.addEventListener("click", () => {
        const next = { auto: "light", light: "dark", dark: "auto" }[savedTheme()] || "auto";
        try {
          localStorage.setItem(THEME_KEY, next);
        } catch {}
        applyTheme(next);
        label();
        drawCharts();
      });
    }
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
    init();
    listen();
  });
})();
