import { existsSync } from "node:fs";
import { gatewayDefinitions } from "../../../gateway/index.ts";
import { createWebViewer, createWebWriter } from "../../../web-viewer.ts";
import { newToken } from "../../web/guard.ts";
import { openBrowser } from "../../web/open-browser.ts";
import { serveWeb } from "../../web/server.ts";
import { type Command, positiveInt, str, UsageError } from "../command.ts";

const LOOPBACK = ["127.0.0.1", "localhost"];

/** Resolves on SIGINT, SIGTERM, or (attached) when stdin ends: the parent that started us is gone. */
function untilStopped(attached: boolean, stdin: AsyncIterable<Uint8Array>): Promise<string> {
  return new Promise((done) => {
    process.once("SIGINT", () => done("SIGINT"));
    process.once("SIGTERM", () => done("SIGTERM"));
    if (attached)
      void (async () => {
        try {
          for await (const _ of stdin) {
            // input is ignored; only its end matters
          }
        } catch {
          // a broken pipe ends it the same way
        }
        done("stdin closed");
      })();
  });
}

export const webCommand: Command = {
  name: "web",
  summary: "a local web page over the store: savings with how they were derived, sources, the retrieval log, every subsystem",
  usage: "pi-sidecar [--db PATH] web [--port N] [--open] [--attached] [--json]",
  options: {
    port: { type: "string", help: "the port on 127.0.0.1 (default: any free port)", value: "N" },
    host: { type: "string", help: "only 127.0.0.1 or localhost: the page is never served to other machines", value: "HOST" },
    open: { type: "boolean", help: "open the page in the default browser (it never opens by itself)" },
    attached: { type: "boolean", help: "stop when stdin closes (how pi's /sidecar web starts it)" },
  },
  async run(ctx) {
    const port = positiveInt(ctx.values.port, "--port");
    if (port !== undefined && port > 65535) throw new UsageError(`--port takes a port from 1 to 65535, got ${port}`);
    const host = str(ctx.values.host);
    if (host !== undefined && !LOOPBACK.includes(host))
      throw new UsageError(`the page is served on 127.0.0.1 only, not ${host}; from another machine, use an SSH tunnel (ssh -L)`);
    if (ctx.positionals.length > 0) throw new UsageError(`web takes no arguments (got ${JSON.stringify(ctx.positionals[0])})`);
    const { config } = ctx.loaded;
    const database = config.db;
    if (!existsSync(database)) ctx.err(`pi-sidecar web: no database at ${database} yet; the page says so until one is there\n`);
    // The viewer reads only: its searches and gets are not logged, nothing is indexed or counted.
    const engine = createWebViewer({ config });
    const served = serveWeb({
      engine,
      openWriter: () => createWebWriter(config),
      database,
      gateway: () => gatewayDefinitions({ config, cwd: ctx.cwd, env: ctx.env }),
      port: port ?? 0,
      token: newToken(),
      log: (line) => ctx.err(`pi-sidecar ${line}\n`),
    });
    if (!served.ok) {
      await engine.close();
      ctx.err(`pi-sidecar web: ${served.message}\n`);
      return 1;
    }
    ctx.err(`pi-sidecar web: ${served.url}\n`);
    ctx.err("pi-sidecar web: the URL carries this run's token; anything without it gets 401. Ctrl-C stops the page.\n");
    if (ctx.json) ctx.out(`${JSON.stringify({ url: served.url, port: served.port, pid: process.pid })}\n`);
    if (ctx.values.open === true) openBrowser(served.url, (m) => ctx.err(`pi-sidecar web: ${m}\n`));
    const why = await untilStopped(ctx.values.attached === true, ctx.stdinStream());
    await served.stop();
    await engine.close();
    if (ctx.values.attached !== true || why !== "stdin closed") ctx.err(`pi-sidecar web: stopped (${why})\n`);
    return 0;
  },
};
