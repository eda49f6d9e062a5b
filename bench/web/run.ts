/**
 * The web page's benchmark: the overview's load time (the server's own Server-Timing, and the
 * wall time a client sees), every API endpoint's p50/p95, and the bytes the overview's first load
 * transfers (page and assets, gzipped as a browser gets them). The server runs in its own
 * process, as `pi-sidecar web` does, and only reads the store.
 *
 *   bun bench/web/run.ts [--quick] [--store PATH] [--json]
 *     --store PATH  read this store (built there first when missing: 200 MB takes minutes)
 * Prints the Markdown section (with --json, the result as JSON); progress on stderr.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { median, percentile } from "../stats-math.ts";
import { createScratch } from "../temp.ts";
import { log } from "../timing.ts";
import { buildWebStore, type WebStore } from "./store.ts";

const SEED = 20261123;
const MB = 1_000_000;
const KB = 1024;
/** The issue's targets. */
export const WEB_TARGETS = { pageServerP50Ms: 50, apiP95Ms: 50, transferBytes: 150 * KB } as const;

export type Timing = { name: string; path: string; runs: number; wallP50: number; wallP95: number; serverP50: number; serverP95: number };

export type WebBenchOptions = {
  quick: boolean;
  /** An existing store to read (the main benchmark's); built there when the file is missing; else a scratch store. */
  storePath?: string;
  /** Requests per endpoint (default 40, quick 15). */
  runs?: number;
};

export type WebBenchResult = {
  quick: boolean;
  /** `built`: the store this run (or the run that left `PATH.json` beside it) built; null for a store made elsewhere. */
  store: {
    path: string;
    dbBytes: number;
    captures: number;
    built: (Omit<WebStore, "sources"> & { sources: number }) | null;
    reused: boolean;
  };
  /** The first request after the server started (opens the database, loads the code). */
  coldFirstLoadMs: number;
  overview: Timing;
  api: Timing[];
  /** Other pages, for the record (not under the API target). */
  pages: Timing[];
  apiWorstP95: number;
  transfer: { page: number; assets: { path: string; bytes: number }[]; total: number };
  targets: { name: string; value: number; unit: "ms" | "bytes"; target: number; met: boolean }[];
};

function serverMs(res: Response): number {
  const m = /total;dur=([\d.]+)/.exec(res.headers.get("server-timing") ?? "");
  return m ? Number(m[1]) : Number.NaN;
}

async function startServer(path: string) {
  const proc = Bun.spawn([process.execPath, join(import.meta.dir, "serve.ts"), path], { stdout: "pipe", stderr: "inherit" });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error("bench: the web server exited before printing its URL");
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { url } = JSON.parse(out) as { url: string };
  const u = new URL(url);
  return { proc, base: u.origin, headers: { authorization: `Bearer ${u.searchParams.get("token")}`, "accept-encoding": "gzip" } };
}

const round = (x: number) => Math.round(x * 10) / 10;

/** A rare word of the store to search for: the longest identifier-like word in some lines of a source in the middle. */
async function rareWord(get: (p: string) => Promise<Response>, source: string): Promise<string> {
  const r = (await (await get(`/api/sources/${source}?lines=1-200`)).json()) as { text?: string };
  const words = (r.text ?? "").match(/[A-Za-z][A-Za-z0-9_]{7,40}/g) ?? [];
  return words.sort((a, b) => b.length - a.length)[0] ?? "timeout";
}

export async function benchWeb(opts: WebBenchOptions): Promise<WebBenchResult> {
  const runs = opts.runs ?? (opts.quick ? 15 : 40);
  const targetBytes = (opts.quick ? 20 : 200) * MB;
  const scratch = opts.storePath ? null : createScratch();
  const path = opts.storePath ?? scratch!.path("web-store");
  let built: WebStore | null = null;
  const reused = existsSync(path);
  try {
    if (!reused) {
      log(`web: building a ${targetBytes / MB} MB store at ${path}`);
      built = await buildWebStore(path, targetBytes, SEED);
      // Kept beside a store that outlives this run: what the next run needs to know of it.
      if (opts.storePath) writeFileSync(`${path}.json`, JSON.stringify(built));
      log(`web: store built in ${(built.buildMs / 1000).toFixed(0)} s`);
    } else {
      log(`web: reading the store at ${path}`);
      if (existsSync(`${path}.json`)) built = JSON.parse(readFileSync(`${path}.json`, "utf8")) as WebStore;
    }
    const server = await startServer(path);
    try {
      const get = (p: string) => fetch(`${server.base}${p}`, { headers: server.headers });
      const t0 = performance.now();
      const cold = await get("/");
      await cold.arrayBuffer();
      const coldFirstLoadMs = performance.now() - t0;
      const sources = (await (await get("/api/sources?limit=200")).json()) as { sourceId: string }[];
      const stats = (await (await get("/api/stats")).json()) as { totals: { captures: number }; bySession: { session: string | null }[] };
      if (sources.length === 0) throw new Error(`bench: the store at ${path} holds no sources`);
      const some = sources[Math.floor(sources.length / 2)]!.sourceId;
      const needle = built?.needle.ident ?? (await rareWord(get, some));
      const session = stats.bySession.find((x) => x.session !== null)?.session ?? "none";
      const measure = async (name: string, p: string): Promise<Timing> => {
        const wall: number[] = [];
        const server: number[] = [];
        // One request first, not counted: its code and its pages of the file loaded (the cold start is reported on its own).
        await (await get(p)).arrayBuffer();
        for (let i = 0; i < runs; i++) {
          const t = performance.now();
          const r = await get(p);
          await r.arrayBuffer();
          wall.push(performance.now() - t);
          if (r.status !== 200) throw new Error(`bench: ${p} answered ${r.status}`);
          server.push(serverMs(r));
        }
        return {
          name,
          path: p,
          runs,
          wallP50: round(median(wall)),
          wallP95: round(percentile(wall, 95)),
          serverP50: round(median(server)),
          serverP95: round(percentile(server, 95)),
        };
      };
      const overview = await measure("overview page", "/");
      const api: Timing[] = [];
      for (const [name, p] of [
        ["stats", "/api/stats"],
        ["stats, one session", `/api/stats?session=${encodeURIComponent(session)}`],
        ["usage (timeline, projects)", "/api/usage"],
        ["sources", "/api/sources"],
        ["search, rare identifier", `/api/search?q=${encodeURIComponent(needle)}`],
        ["search, common word", "/api/search?q=timeout"],
        ["source lines", `/api/sources/${some}?lines=100-400`],
        ["retrieval log", "/api/retrievals"],
        ["read cache", "/api/readcache"],
        ["pruning", "/api/pruning"],
        ["code index", "/api/code"],
        ["gateway", "/api/gateway"],
        ["memory", "/api/memory"],
      ] as const)
        api.push(await measure(name, p));
      const pages: Timing[] = [];
      for (const [name, p] of [
        ["sources page with a search", `/sources?q=${encodeURIComponent(needle)}`],
        ["source view (2,000 lines)", `/sources/${some}`],
        ["retrieval log page", "/retrievals"],
      ] as const)
        pages.push(await measure(name, p));
      // What a browser's first visit transfers: the page and what it links, gzipped.
      const page = await fetch(`${server.base}/`, { headers: server.headers, decompress: false } as RequestInit);
      const html = new Uint8Array(await page.arrayBuffer());
      const text = new TextDecoder().decode(page.headers.get("content-encoding") === "gzip" ? Bun.gunzipSync(html) : html);
      const assets: { path: string; bytes: number }[] = [];
      for (const a of new Set(text.match(/\/assets\/[\w.-]+/g) ?? [])) {
        const r = await fetch(`${server.base}${a}`, { headers: server.headers, decompress: false } as RequestInit);
        assets.push({ path: a, bytes: (await r.arrayBuffer()).byteLength });
      }
      const total = html.byteLength + assets.reduce((n, a) => n + a.bytes, 0);
      const apiWorstP95 = Math.max(...api.map((t) => t.wallP95));
      const t = WEB_TARGETS;
      return {
        quick: opts.quick,
        store: {
          path,
          dbBytes: statSync(path).size,
          captures: stats.totals.captures,
          built: built && { ...built, sources: Array.isArray(built.sources) ? built.sources.length : built.sources },
          reused,
        },
        coldFirstLoadMs: Math.round(coldFirstLoadMs),
        overview,
        api,
        pages,
        apiWorstP95,
        transfer: { page: html.byteLength, assets, total },
        targets: [
          {
            name: "first page load (overview), server time p50",
            value: overview.serverP50,
            unit: "ms",
            target: t.pageServerP50Ms,
            met: overview.serverP50 <= t.pageServerP50Ms,
          },
          {
            name: "API answers, worst p95 (wall, client side)",
            value: apiWorstP95,
            unit: "ms",
            target: t.apiP95Ms,
            met: apiWorstP95 <= t.apiP95Ms,
          },
          {
            name: "page's total transfer (first visit, gzip)",
            value: total,
            unit: "bytes",
            target: t.transferBytes,
            met: total <= t.transferBytes,
          },
        ],
      };
    } finally {
      server.proc.kill("SIGTERM");
      await server.proc.exited;
    }
  } finally {
    scratch?.remove();
  }
}

const fmt = (value: number, unit: "ms" | "bytes") => (unit === "ms" ? `${value.toFixed(1)} ms` : `${(value / KB).toFixed(1)} KB`);

/** The benchmark's section of BENCHMARKS.md. */
export function webSection(r: WebBenchResult): string {
  const s = r.store;
  const origin = s.built
    ? `built through the real capture path (${s.built.sources} captures of ${(s.built.inputBytes / MB).toFixed(0)} MB over 30 days, ${s.built.retrievals} searches and gets, pruning and read-cache rows)`
    : "a store given by path (made elsewhere: the main benchmark's)";
  const lines = [
    "## Web page (`pi-sidecar web`)",
    "",
    `Store: ${(s.dbBytes / MB).toFixed(0)} MB database, ${s.captures.toLocaleString("en-US")} captures, ${origin}${r.quick && s.built ? " (quick run: a smaller store)" : ""}.`,
    `The server runs in its own process over a read-only connection, as \`pi-sidecar web\` does; requests one at a time,`,
    `${r.overview.runs} per endpoint after one uncounted warm-up request, gzip accepted. Server time is the page's own \`Server-Timing\` total; wall time is what the client saw.`,
    "",
    "| target | measured | limit | result |",
    "| --- | ---: | ---: | --- |",
    ...r.targets.map((t) => `| ${t.name} | ${fmt(t.value, t.unit)} | ${fmt(t.target, t.unit)} | ${t.met ? "PASS" : "MISS"} |`),
    "",
    "| request | wall p50 | wall p95 | server p50 | server p95 |",
    "| --- | ---: | ---: | ---: | ---: |",
    ...[r.overview, ...r.api, ...r.pages].map(
      (t) => `| ${t.name} (\`${t.path.split("?")[0]}\`) | ${t.wallP50} ms | ${t.wallP95} ms | ${t.serverP50} ms | ${t.serverP95} ms |`,
    ),
    "",
    `First visit transfer: page ${(r.transfer.page / KB).toFixed(1)} KB + ${r.transfer.assets
      .map((a) => `${a.path.replace(/^\/assets\//, "").replace(/\.[0-9a-f]{12}\./, ".")} ${(a.bytes / KB).toFixed(1)} KB`)
      .join(
        " + ",
      )} = ${(r.transfer.total / KB).toFixed(1)} KB (assets are then cached for good). The first request after start (opening the database): ${r.coldFirstLoadMs} ms.`,
    "",
  ];
  return lines.join("\n");
}

if (import.meta.main) {
  const argv = process.argv.slice(2);
  const at = (flag: string) => (argv.includes(flag) ? argv[argv.indexOf(flag) + 1] : undefined);
  const result = await benchWeb({ quick: argv.includes("--quick"), storePath: at("--store") });
  process.stdout.write(argv.includes("--json") ? `${JSON.stringify(result, null, 2)}\n` : webSection(result));
}
