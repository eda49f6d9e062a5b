/**
 * The web server in its own process for the benchmark (as `pi-sidecar web` runs it): the shipped
 * serveWeb over the viewer `pi-sidecar web` uses (a read-only connection). Prints {url, port, pid}; stops on SIGTERM.
 *
 *   bun bench/web/serve.ts DB_PATH
 */
import { defaultConfig } from "../../src/config.ts";
import { gatewayDefinitions } from "../../src/gateway/definition-tokens.ts";
import { newToken } from "../../src/surfaces/web/guard.ts";
import { serveWeb } from "../../src/surfaces/web/server.ts";
import { createWebViewer, createWebWriter } from "../../src/web-viewer.ts";

const [path] = process.argv.slice(2) as [string];
const config = { ...defaultConfig(), db: path };
const engine = createWebViewer({ config });
const served = serveWeb({
  engine,
  openWriter: () => createWebWriter(config),
  database: path,
  gateway: () => gatewayDefinitions({ config, cwd: process.cwd() }),
  port: 0,
  token: newToken(),
});
if (!served.ok) throw new Error(served.message);
process.stdout.write(`${JSON.stringify({ url: served.url, port: served.port, pid: process.pid })}\n`);
await new Promise<void>((done) => process.once("SIGTERM", () => done()));
await served.stop();
await engine.close();
process.exit(0);
