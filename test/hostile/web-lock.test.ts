/**
 * Lock contention on the web page: while another process holds the database's write lock, a
 * confirmed purge waits for it without blocking the server, every other page keeps answering, and
 * a lock held past the wait answers "busy, try again" with nothing deleted.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { cleanupTempDirs, testSeed } from "../helpers.ts";
import { type Running, type Seeded, seedStore, startServer } from "../web/harness.ts";

let seeded: Seeded;
let web: Running;

beforeAll(async () => {
  seeded = await seedStore(testSeed("hostile web lock"));
  web = startServer(seeded.config, { writeWaitMs: 3000 });
}, 60_000);

afterAll(async () => {
  await web?.stop();
  cleanupTempDirs();
});

/** Another process holding the write lock (an open write transaction) for `ms`; resolves once it holds it. */
async function holdLock(ms: number) {
  const holder = Bun.spawn([process.execPath, join(import.meta.dir, "../web/hold-lock.ts"), seeded.path, String(ms)], { stdout: "pipe" });
  const first = await holder.stdout.getReader().read();
  expect(new TextDecoder().decode(first.value)).toContain("locked");
  return holder;
}

async function csrf(): Promise<string> {
  return ((await (await fetch(`${web.base}/api/csrf`, { headers: web.auth })).json()) as { csrf: string }).csrf;
}

function purge(body: Record<string, unknown>, token: string, action = "/api/purge") {
  return fetch(`${web.base}${action}`, {
    method: "POST",
    headers: { ...web.auth, "content-type": "application/json", "x-csrf-token": token },
    body: JSON.stringify({ ...body, confirm: true }),
  });
}

const sourceCount = async () =>
  ((await (await fetch(`${web.base}/api/stats`, { headers: web.auth })).json()) as any).totals.captures as number;

describe("the web page under another process's write lock", () => {
  test("a waiting purge blocks nothing: pages answer meanwhile; past the wait it answers busy and deletes nothing", async () => {
    const before = await sourceCount();
    const token = await csrf();
    const holder = await holdLock(60_000);
    try {
      let settled = false;
      const pending = purge({ source: seeded.sources[1] }, token).then((r) => {
        settled = true;
        return r;
      });
      // Every page and the API answer while the purge waits for the lock.
      for (const path of ["/", "/sources", "/retrievals", "/api/stats", `/sources/${seeded.needleSource}`]) {
        const r = await fetch(`${web.base}${path}`, { headers: web.auth });
        expect(r.status).toBe(200);
        await r.arrayBuffer();
        expect(settled).toBe(false);
      }
      const r = await pending;
      expect(r.status).toBe(503);
      expect(r.headers.get("retry-after")).not.toBeNull();
      const body = (await r.json()) as { code: string; message: string };
      expect(body.code).toBe("BUSY");
      expect(body.message).toContain("Try again");
      expect(await sourceCount()).toBe(before);
    } finally {
      holder.kill();
      await holder.exited;
    }
  }, 60_000);

  test("a lock released within the wait: the purge waits for it, then deletes", async () => {
    const before = await sourceCount();
    const token = await csrf();
    const holder = await holdLock(800);
    const r = await purge({ source: seeded.sources[1] }, token);
    expect(r.status).toBe(200);
    expect(((await r.json()) as { sources: number }).sources).toBe(1);
    await holder.exited;
    expect(await sourceCount()).toBe(before - 1);
  }, 60_000);

  test("forget waits the same way: the page answers meanwhile, then busy, and the memory is still there", async () => {
    const hits = async () =>
      ((await (await fetch(`${web.base}/api/memory?project=%2Frepo%2Fa&q=deploys`, { headers: web.auth })).json()) as any).search.hits as {
        id: string;
      }[];
    const [hit] = await hits();
    expect(hit).toBeDefined();
    const token = await csrf();
    const holder = await holdLock(60_000);
    try {
      let settled = false;
      const pending = purge({ project: "/repo/a", id: hit!.id }, token, "/api/memory/forget").then((r) => {
        settled = true;
        return r;
      });
      const page = await fetch(`${web.base}/memory`, { headers: web.auth });
      expect(page.status).toBe(200);
      expect(settled).toBe(false);
      const r = await pending;
      expect(r.status).toBe(503);
      expect(((await r.json()) as { code: string }).code).toBe("BUSY");
    } finally {
      holder.kill();
      await holder.exited;
    }
    expect((await hits()).map((h) => h.id)).toContain(hit!.id);
  }, 60_000);
});
