/** What the web server's parts share: its options, the app they add routes to, and how failures read. */
import type { Context, Hono } from "hono";
import { AppError, errorMessage } from "../../errors.ts";
import type { GatewayDefinitions } from "../../gateway/index.ts";
import type { WebEngine, WebWriter } from "../../web-viewer.ts";
import type { Html } from "./html.ts";
import type { PanelPath } from "./render/layout.ts";

export type WebOptions = {
  /** The viewer: an engine on a read-only connection. */
  engine: WebEngine;
  /** A writing engine, opened for one confirmed purge or forget and closed after it. */
  openWriter: () => WebWriter;
  /** The database file (for messages, and to notice changes). */
  database: string;
  /** The MCP gateway's definitions, read from the files (no server started). */
  gateway: () => GatewayDefinitions;
  port: number;
  token: string;
  /** How often the files are checked for changes to push to open pages. */
  pollMs?: number;
  log?: (line: string) => void;
};

export type WebServer = { url: string; port: number; token: string; stop(): Promise<void> };

/** What route handlers share. */
export type WebApp = {
  app: Hono;
  o: WebOptions;
  csrf: string;
  /** The database is there to read; a page or an answer that says what to do when it is not. */
  missing(c: Context, api: boolean): Response | null;
  /** A page around a panel, or only the panel for live updates (`?fragment=1`). */
  page(c: Context, title: string, active: PanelPath | null, body: Html, chart?: boolean): Response;
};

/** An engine failure as the reader should see it: what is wrong and what to do; never a stack. */
export function explainFailure(error: unknown): { status: number; code: string; message: string } {
  if (error instanceof AppError) return { status: 503, code: error.code, message: error.message };
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === "string" && code.startsWith("SQLITE_"))
    return {
      status: 503,
      code,
      message: `The database failed (${code}: ${errorMessage(error)}). Check the disk and the file's permissions, then reload.`,
    };
  return { status: 500, code: "INTERNAL", message: `Unexpected error: ${errorMessage(error)}. Reload; if it persists, report it.` };
}
