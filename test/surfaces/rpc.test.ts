import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { createEngine } from "../../src/engine.ts";
import { createRpcEngine } from "../../src/surfaces/rpc/client.ts";
import { handleFrame } from "../../src/surfaces/rpc/server.ts";
import { BUN, cleanupTempDirs, noisyLog, ROOT, tempDir, testConfig, waitFor } from "../helpers.ts";

afterAll(cleanupTempDirs);

function rpcEngine(dbPath: string, extra: Partial<Parameters<typeof createRpcEngine>[0]> = {}) {
  return createRpcEngine({
    command: BUN,
    args: [join(ROOT, "src/main.ts"), "serve", "--stdio"],
    config: testConfig(dbPath),
    env: { PI_SIDECAR_DB: dbPath, HOME: tempDir() },
    ...extra,
  });
}

describe("JSON-RPC frames", () => {
  test("malformed, unknown and bad-params frames get JSON-RPC errors; notifications get no reply", async () => {
    const engine = createEngine({ config: testConfig(join(tempDir(), "s.db")) });
    expect((await handleFrame(engine, "{nope"))?.error?.code).toBe(-32700);
    expect((await handleFrame(engine, JSON.stringify({ id: 1, method: "list" })))?.error?.code).toBe(-32600);
    expect((await handleFrame(engine, JSON.stringify({ jsonrpc: "2.0", id: 2, method: "drop_tables" })))?.error?.code).toBe(-32601);
    expect((await handleFrame(engine, JSON.stringify({ jsonrpc: "2.0", id: 3, method: "list", params: { a: 1 } })))?.error?.code).toBe(
      -32602,
    );
    expect(await handleFrame(engine, JSON.stringify({ jsonrpc: "2.0", method: "list", params: [] }))).toBeNull();
    const ok = await handleFrame(engine, JSON.stringify({ jsonrpc: "2.0", id: "x", method: "list", params: [{}, 5] }));
    expect(ok).toEqual({ jsonrpc: "2.0", id: "x", result: [] });
    await engine.close();
  });
});

describe("the engine over stdio (serve --stdio)", () => {
  test("same interface, same answers as in-process", async () => {
    const db = join(tempDir(), "shared.db");
    const rpc = rpcEngine(db);
    const local = createEngine({ config: testConfig(db) });
    try {
      const uuid = crypto.randomUUID();
      const cap = await rpc.capture({
        text: noisyLog(1400, 3, { line: 900, text: `TARGET_VALUE=${uuid}` }),
        tool: "bash",
        session: "s",
        project: "/p",
      });
      expect(cap.stored).toBe(true);
      if (!cap.stored) return;
      expect(cap.receipt).toContain(`context_search {"query": "<distinctive words>", "source": "${cap.sourceId}"}`);
      const viaRpc = await rpc.search({ query: "TARGET_VALUE", source: cap.sourceId });
      const viaLocal = await local.search({ query: "TARGET_VALUE", source: cap.sourceId });
      expect(viaRpc.ok && viaRpc.hits.map((h) => h.lines)).toEqual(viaLocal.ok && viaLocal.hits.map((h) => h.lines));
      const got = await rpc.get({ source: cap.sourceId, lines: { from: 900, to: 900 } });
      expect(got.ok && got.text).toBe(`TARGET_VALUE=${uuid}\n`);
      const missing = await rpc.get({ source: "ctx_nothere" });
      expect(missing.ok).toBe(false);
      expect((await rpc.stats({})).totals.captures).toBe(1);
      expect((await rpc.ping()).version).toMatch(/^\d+\.\d+\.\d+$/);
    } finally {
      await rpc.close();
      await local.close();
    }
  });

  test("a child that dies is restarted on the next call", async () => {
    const rpc = rpcEngine(join(tempDir(), "r.db"));
    try {
      const first = await rpc.ping();
      process.kill(first.pid, "SIGKILL");
      await waitFor(() => !rpc.running, "the client to notice the killed engine");
      const second = await rpc.ping();
      expect(second.pid).not.toBe(first.pid);
      expect(rpc.starts).toBe(2);
      expect((await rpc.list({}, 5)).length).toBe(0);
    } finally {
      await rpc.close();
    }
  });

  test("an engine that cannot start is a clear error, and restarts stop after repeated failures", async () => {
    const rpc = createRpcEngine({ command: join(tempDir(), "no-such-binary"), args: [], config: testConfig(join(tempDir(), "x.db")) });
    const errors: string[] = [];
    for (let i = 0; i < 7; i++) {
      try {
        await rpc.ping();
      } catch (error) {
        errors.push((error as Error).message);
      }
    }
    expect(errors.length).toBe(7);
    expect(errors[0]).toContain("could not run");
    expect(errors.at(-1)).toContain("not restarting it");
    await rpc.close();
  });
});
