/** The extension's slash commands: /context-stats, /context-purge, /readcache-status, /readcache-refresh. */
import { writeSync } from "node:fs";
import type { ExtensionAPI, ExtensionContext } from "@earendil-works/pi-coding-agent";
import type { Engine } from "../../engine.ts";
import { describeRewrite } from "../../rewrite-text.ts";
import { parseLineRange } from "../../units.ts";
import { formatStatsBrief, runTool, type ToolScope } from "../tools/handlers.ts";
import type { EngineHandle } from "./engine-handle.ts";
import type { ReadCacheHandle } from "./readcache.ts";

/** Prints a command's answer where the user sees it, in every mode. */
export function say(ctx: ExtensionContext, text: string): void {
  if (ctx.mode === "print") writeSync(1, `${text}\n`);
  else if (ctx.mode === "json") writeSync(1, `${JSON.stringify({ type: "pi_sidecar", text })}\n`);
  else ctx.ui.notify(text, "info");
}

/**
 * The rewrite a purge or forget started runs on a worker (pi keeps answering meanwhile); the user
 * is told when it ended, and how.
 */
export function tellWhenRewritten(ctx: ExtensionContext, e: Pick<Engine, "rewritten">): void {
  void e
    .rewritten()
    .then((done) => {
      if (done) say(ctx, `pi-sidecar: ${describeRewrite(done)}`);
    })
    .catch(() => {
      // pi is shutting down, or the engine restarted: the next writing engine finishes the rewrite.
    });
}

export function registerCommands(
  pi: ExtensionAPI,
  engine: EngineHandle,
  readcache: ReadCacheHandle | null,
  scope: (ctx: ExtensionContext) => ToolScope,
): void {
  pi.registerCommand("context-stats", {
    description: "pi-sidecar: tokens kept out of the context, spent on receipts and retrieval, and net saved",
    handler: async (_args, ctx) => {
      const e = await engine.get();
      if (!e) return say(ctx, `pi-sidecar is unavailable (${engine.problem()}).`);
      const session = await e.stats({ session: ctx.sessionManager.getSessionId() });
      const all = await e.stats({});
      say(ctx, formatStatsBrief(session, all));
    },
  });
  pi.registerCommand("context-purge", {
    description: "pi-sidecar: delete stored output: /context-purge SOURCE_ID | AGE (e.g. 2h, 7d) | session",
    handler: async (args, ctx) => {
      const what = (args ?? "").trim();
      if (!what) return say(ctx, "Usage: /context-purge SOURCE_ID | AGE (e.g. 2h, 7d: older than that) | session (this session's)");
      const e = await engine.get();
      if (!e) return say(ctx, `pi-sidecar is unavailable (${engine.problem()}).`);
      const input = what === "session" ? { this_session: true } : /^ctx_/.test(what) ? { source: what } : { older_than: what };
      const r = await runTool(e, "context_purge", input, scope(ctx));
      say(ctx, r.text);
      if ((r.details as { rewrite?: string } | undefined)?.rewrite === "running") tellWhenRewritten(ctx, e);
    },
  });
  if (!readcache) return;
  pi.registerCommand("readcache-status", {
    description: "pi-sidecar read cache: tracked files, modes served, tokens saved",
    handler: async (_args, ctx) => say(ctx, readcache.status()),
  });
  pi.registerCommand("readcache-refresh", {
    description: "pi-sidecar read cache: forget a file (or lines A-B) so the next read returns the text",
    handler: async (args, ctx) => {
      const [path, lines] = (args ?? "").trim().split(/\s+/);
      if (!path) return say(ctx, "Usage: /readcache-refresh PATH [A-B]");
      const range = lines ? parseLineRange(lines) : undefined;
      if (range === null) return say(ctx, `Lines must look like 10-40, got ${lines}.`);
      readcache.refresh(ctx.cwd, path, range ? [range.from, range.to] : undefined);
      say(ctx, `The next read of ${path}${range ? ` lines ${range.from}-${range.to}` : ""} returns the text.`);
    },
  });
}
