/** A seeded store and the shipped web server over it (serveWeb, with the viewer and writer `pi-sidecar web` uses). */
import { join } from "node:path";
import type { Config } from "../../src/config.ts";
import { createEngine } from "../../src/engine.ts";
import { gatewayDefinitions } from "../../src/gateway/definition-tokens.ts";
import { CLI_CALLS } from "../../src/store/next-calls.ts";
import { serveWeb } from "../../src/surfaces/web/server.ts";
import type { WebServer } from "../../src/surfaces/web/web-app.ts";
import { createWebViewer, createWebWriter, type WebEngine } from "../../src/web-viewer.ts";
import { noisyLog, tempDir, testConfig } from "../helpers.ts";

export const NEEDLE = "ZEBRA_NEEDLE_4711 checksum mismatch in ledger shard 9";
export const NEEDLE_LINE = 1234;

export const MEMORY_EVENTS = [
  ["decision", "the staging database listens on port 6543"],
  ["note", "deploys go through the blue-green script in ops/deploy.sh"],
  ["correction", "the staging database listens on port 7654, not 6543"],
] as const;

export type Seeded = { path: string; config: Config; needleSource: string; sources: string[]; seed: number };

/** A real store: captures in two sessions and projects, searches and gets, all counted. */
export async function seedStore(seed: number, dir = tempDir("pi-sidecar-web-")): Promise<Seeded> {
  const path = join(dir, "sidecar.db");
  const config = testConfig(path);
  const engine = createEngine({ config, calls: CLI_CALLS, background: "inline" });
  const sources: string[] = [];
  const add = async (text: string, tool: string, session: string, project: string, label: string) => {
    const r = await engine.capture({ text, tool, session, project, label, force: true });
    if (!r.stored) throw new Error(`seed: not stored (${r.reason})`);
    sources.push(r.sourceId);
    return r.sourceId;
  };
  const needleSource = await add(noisyLog(3000, seed, { line: NEEDLE_LINE, text: NEEDLE }), "bash", "s-one", "/repo/a", "npm test");
  await add(noisyLog(1500, seed + 1), "bash", "s-one", "/repo/a", "build log");
  await add(
    JSON.stringify(
      Array.from({ length: 400 }, (_, i) => ({ id: i, name: `item-${i}`, tags: ["alpha", "beta"], price: (i * 37) % 1000 })),
      null,
      2,
    ),
    "web_fetch",
    "s-two",
    "/repo/b",
    "catalog.json",
  );
  await add(noisyLog(800, seed + 2), "read", "s-two", "/repo/b", "server.log");
  // Retrievals: the needle found then read, another search twice, a get alone.
  for (const query of ["ZEBRA_NEEDLE_4711", "item-42 price", "item-42 price"]) {
    const r = await engine.search({ query });
    if (!r.ok) throw new Error(`seed search failed: ${r.message}`);
  }
  const g = await engine.get({ source: needleSource, lines: { from: NEEDLE_LINE - 2, to: NEEDLE_LINE + 2 } });
  if (!g.ok) throw new Error(g.message);
  const g2 = await engine.get({ source: sources[3]!, lines: { from: 1, to: 20 } });
  if (!g2.ok) throw new Error(g2.message);
  // Episodic memory: a few short events in one project (short: none is stored as a source).
  for (const [kind, text] of MEMORY_EVENTS) {
    const m = await engine.memory({ type: "add", project: "/repo/a", session: "s-one", kind, text });
    if (!m.ok) throw new Error(`seed memory: ${m.message}`);
  }
  await engine.settle();
  await engine.close();
  return { path, config, needleSource, sources, seed };
}

export type Running = WebServer & { base: string; engine: WebEngine; auth: Record<string, string> };

/** The shipped server on a free port over `config.db`. */
export function startServer(config: Config, options: { pollMs?: number; writeWaitMs?: number } = {}): Running {
  const engine = createWebViewer({ config });
  const served = serveWeb({
    engine,
    openWriter: () => createWebWriter(config, { waitMs: options.writeWaitMs }),
    database: config.db,
    gateway: () => gatewayDefinitions({ config, cwd: tempDir(), env: { HOME: tempDir(), PI_CODING_AGENT_DIR: tempDir() } }),
    port: 0,
    token: "test-token-0123456789abcdef",
    pollMs: options.pollMs ?? 100,
  });
  if (!served.ok) throw new Error(served.message);
  return {
    ...served,
    base: `http://127.0.0.1:${served.port}`,
    engine,
    auth: { authorization: `Bearer ${served.token}` },
    stop: async () => {
      await served.stop();
      await engine.close();
    },
  };
}
