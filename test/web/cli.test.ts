/**
 * `pi-sidecar web` as a user runs it, and `/sidecar web` as pi runs it: real processes. The URL
 * (with its token) on stderr and, with --json, {url, port, pid} on stdout; a clean stop on
 * SIGINT, SIGTERM, a closed stdin (--attached) and a killed parent; a port in use, another host
 * and a missing database said plainly; the viewer never writes.
 */

import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ExtensionAPI } from "@earendil-works/pi-coding-agent";
import { COMMANDS } from "../../src/surfaces/cli/run.ts";
import { registerWebCommand } from "../../src/surfaces/pi/web.ts";
import { alive, BUN, cleanupTempDirs, ROOT, tempDir, testConfig, testSeed, waitFor, waitingDb } from "../helpers.ts";
import { type Seeded, seedStore } from "./harness.ts";

const wired = COMMANDS.some((c) => c.name === "web");
if (!wired) console.log("web CLI tests skipped: the web command is not in COMMANDS (src/surfaces/cli/run.ts) yet");
const run = wired ? describe : describe.skip;

let seeded: Seeded;
beforeAll(async () => {
  if (wired) seeded = await seedStore(testSeed("web cli store"));
});
afterAll(() => cleanupTempDirs());

type Started = { proc: Bun.Subprocess<"pipe", "pipe", "pipe">; url: string; port: number; pid: number; base: string; token: string };

async function startWeb(args: string[], env: Record<string, string> = {}): Promise<Started> {
  const proc = Bun.spawn([BUN, join(ROOT, "src/main.ts"), ...args, "web", "--json"], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
    env: { PATH: process.env.PATH ?? "", HOME: tempDir(), ...env },
  });
  const reader = proc.stdout.getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`web exited before its URL: ${await new Response(proc.stderr).text()}`);
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  const { url, port, pid } = JSON.parse(out) as { url: string; port: number; pid: number };
  const u = new URL(url);
  return { proc, url, port, pid, base: u.origin, token: u.searchParams.get("token")! };
}

/** Waits until nothing answers at `url` any more. */
async function refused(url: string, what: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    try {
      await fetch(url);
    } catch {
      return;
    }
    if (performance.now() - started > 10_000) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/** Opens the printed URL: the page itself, with no cookie set (the page's script keeps the token in its origin's storage). */
async function openPrinted(url: string): Promise<Response> {
  const page = await fetch(url, { redirect: "manual" });
  expect(page.headers.get("set-cookie")).toBeNull();
  return page;
}

const bearer = (s: Started) => ({ authorization: `Bearer ${s.token}` });

run("pi-sidecar web", () => {
  test("--json prints {url, port, pid}; the URL works; SIGTERM and SIGINT stop it cleanly", async () => {
    for (const signal of ["SIGTERM", "SIGINT"] as const) {
      const s = await startWeb(["--db", seeded.path]);
      expect(s.pid).toBe(s.proc.pid);
      expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]{32}$/);
      const page = await openPrinted(s.url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain("Net saved");
      expect((await fetch(`${s.base}/api/stats`)).status).toBe(401);
      s.proc.kill(signal);
      expect(await s.proc.exited).toBe(0);
      const err = await new Response(s.proc.stderr).text();
      expect(err).toContain(s.url);
      expect(err).toContain(`stopped (${signal})`);
    }
  });

  test("the viewer only reads: a search and a get from the page are not logged, nothing is written", async () => {
    const count = () => {
      const db = waitingDb(seeded.path);
      try {
        return (db.query("SELECT count(*) AS n FROM retrievals").get() as { n: number }).n;
      } finally {
        db.close();
      }
    };
    const files = () =>
      [seeded.path, `${seeded.path}-wal`].map((f) => (existsSync(f) ? `${statSync(f).size}:${statSync(f).mtimeMs}` : "-"));
    const before = count();
    const filesBefore = files();
    const s = await startWeb(["--db", seeded.path]);
    try {
      const r = await fetch(`${s.base}/api/search?q=ZEBRA_NEEDLE_4711`, { headers: bearer(s) });
      expect(((await r.json()) as { hits: unknown[] }).hits.length).toBe(1);
      expect((await fetch(`${s.base}/api/sources/${seeded.needleSource}?lines=1-5`, { headers: bearer(s) })).status).toBe(200);
      expect((await fetch(`${s.base}/sources?q=ledger+shard`, { headers: bearer(s) })).status).toBe(200);
    } finally {
      s.proc.kill("SIGTERM");
      await s.proc.exited;
    }
    expect(count()).toBe(before);
    expect(files()).toEqual(filesBefore);
  });

  test("--attached stops when stdin closes, and when the parent that started it is killed", async () => {
    const s = await startWeb(["--db", seeded.path, "--attached"]);
    s.proc.stdin.end();
    expect(await s.proc.exited).toBe(0);
    // A parent (as pi) starts it with a pipe for stdin, then dies without a word.
    const parent = Bun.spawn([BUN, join(import.meta.dir, "parent.ts"), seeded.path], { stdout: "pipe", stderr: "inherit" });
    const reader = parent.stdout.getReader();
    let out = "";
    while (!out.includes("\n")) out += new TextDecoder().decode((await reader.read()).value);
    const child = Number(out.trim());
    expect(alive(child)).toBe(true);
    parent.kill("SIGKILL");
    await parent.exited;
    await waitFor(() => !alive(child), "the web child to exit after its parent was killed", 10_000);
  });

  test("a port in use, another host, a missing database: each said plainly", async () => {
    const s = await startWeb(["--db", seeded.path]);
    try {
      const clash = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "--db", seeded.path, "web", "--port", String(s.port)], {
        env: { PATH: process.env.PATH ?? "", HOME: tempDir() },
      });
      expect(clash.exitCode).toBe(1);
      expect(clash.stderr.toString()).toContain(`Port ${s.port} on 127.0.0.1 is in use: choose another with --port N`);
    } finally {
      s.proc.kill("SIGTERM");
      await s.proc.exited;
    }
    const host = Bun.spawnSync([BUN, join(ROOT, "src/main.ts"), "web", "--host", "0.0.0.0"], {
      env: { PATH: process.env.PATH ?? "", HOME: tempDir() },
    });
    expect(host.exitCode).toBe(2);
    expect(host.stderr.toString()).toContain("served on 127.0.0.1 only, not 0.0.0.0");
    const path = join(tempDir(), "no", "sidecar.db");
    const m = await startWeb(["--db", path]);
    try {
      const page = await fetch(`${m.base}/`, { headers: bearer(m) });
      expect(page.status).toBe(200);
      expect(await page.text()).toContain(`No database at ${path} yet.`);
      expect((await fetch(`${m.base}/api/stats`, { headers: bearer(m) })).status).toBe(503);
      expect(existsSync(path)).toBe(false);
    } finally {
      m.proc.kill("SIGTERM");
      await m.proc.exited;
    }
    expect(await new Response(m.proc.stderr).text()).toContain(`no database at ${path} yet`);
  });
});

run("/sidecar web in pi", () => {
  test("starts the page, shows its URL, stops it on /sidecar web stop and at session shutdown", async () => {
    const bin = join(tempDir(), "pi-sidecar");
    writeFileSync(bin, `#!/bin/sh\nexec "${BUN}" "${join(ROOT, "src/main.ts")}" "$@"\n`);
    chmodSync(bin, 0o755);
    const config = testConfig(seeded.path, (c) => {
      c.pi.binary = bin;
    });
    const commands = new Map<string, { handler: (args: string, ctx: unknown) => Promise<void> }>();
    const events = new Map<string, () => Promise<void>>();
    const pi = {
      registerCommand: (name: string, spec: { handler: (args: string, ctx: unknown) => Promise<void> }) => commands.set(name, spec),
      on: (event: string, fn: () => Promise<void>) => events.set(event, fn),
    } as unknown as ExtensionAPI;
    registerWebCommand(pi, config, tempDir());
    const said: string[] = [];
    const ctx = { mode: "interactive", hasUI: true, ui: { notify: (text: string) => said.push(text) } };
    const sidecar = commands.get("sidecar")!;
    await sidecar.handler("web", ctx);
    const url = /http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+/.exec(said.at(-1)!)?.[0];
    expect(url).toBeDefined();
    expect((await openPrinted(url!)).status).toBe(200);
    await sidecar.handler("web", ctx);
    expect(said.at(-1)).toBe(`The web page is running: ${url}`);
    await sidecar.handler("web stop", ctx);
    expect(said.at(-1)).toBe("Stopped the web page.");
    await refused(url!, "the page to stop");
    await sidecar.handler("web", ctx);
    const again = /http:\/\/127\.0\.0\.1:(\d+)\//.exec(said.at(-1)!)?.[1];
    expect(again).toBeDefined();
    await events.get("session_shutdown")!();
    await refused(`http://127.0.0.1:${again}/`, "the page to stop at shutdown");
    await sidecar.handler("webx", ctx);
    expect(said.at(-1)).toContain("Usage: /sidecar web");
  });
});
