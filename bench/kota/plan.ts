/** What the kota speed benchmarks ask of each corpus: a hub file, files to change, symbols, search queries. */
export type CorpusName = "hono" | "vite";

export type Plan = { hub: string; changed: string[]; symbols: [string, string][]; queries: string[] };

export const PLAN: Record<CorpusName, Plan> = {
  hono: {
    hub: "src/hono-base.ts",
    changed: ["src/utils/url.ts", "src/context.ts", "src/middleware/cors/index.ts", "src/jsx/base.ts", "src/router/trie-router/node.ts"],
    symbols: [
      ["compose", "src/compose.ts"],
      ["Context", "src/context.ts"],
      ["HTTPException", "src/http-exception.ts"],
      ["getPath", "src/utils/url.ts"],
      ["MiddlewareHandler", "src/types.ts"],
      ["Env", "src/types.ts"],
      ["HonoRequest", "src/request.ts"],
      ["createMiddleware", "src/helper/factory/index.ts"],
    ],
    queries: ["getPath", "c.req.param", "HTTPException", "middleware", "jsx", "ormatNam"],
  },
  vite: {
    hub: "packages/vite/src/node/config.ts",
    changed: [
      "packages/vite/src/node/utils.ts",
      "packages/vite/src/node/server/index.ts",
      "packages/vite/src/node/plugins/css.ts",
      "packages/vite/src/node/build.ts",
      "packages/vite/src/client/client.ts",
    ],
    symbols: [
      ["resolveConfig", "packages/vite/src/node/config.ts"],
      ["createServer", "packages/vite/src/node/server/index.ts"],
      ["normalizePath", "packages/vite/src/node/utils.ts"],
      ["ResolvedConfig", "packages/vite/src/node/config.ts"],
      ["Plugin", "packages/vite/src/node/plugin.ts"],
      ["createLogger", "packages/vite/src/node/logger.ts"],
      ["ViteDevServer", "packages/vite/src/node/server/index.ts"],
      ["isObject", "packages/vite/src/node/utils.ts"],
    ],
    queries: ["resolveConfig", "hmr", "import.meta.hot", "createServer", "ssrLoadModule", "etDevServe"],
  },
};

export type Timing = { p50: number; p95: number; runs: number };

/** Appends a comment to a file and moves its mtime forward (a change inside the same clock tick is still seen). */
export async function changeFile(root: string, file: string, i: number): Promise<void> {
  const { appendFileSync, utimesSync } = await import("node:fs");
  const { join } = await import("node:path");
  appendFileSync(join(root, file), `\n// kota bench edit ${i}\n`);
  const when = new Date(Date.now() + (i + 1) * 2000);
  utimesSync(join(root, file), when, when);
}
