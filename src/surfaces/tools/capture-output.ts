/**
 * The tool_result hook, shared by pi and the MCP server: a text result over the threshold goes
 * to the store and the model gets the receipt instead; images and small results pass untouched;
 * the session keeps the source id in `details`, never the full text. A sidecar failure never
 * breaks the tool call. What the model asked for by path (`read`) and what it retrieved from
 * the store are never replaced: pi's own cut and the read cache decide what a read shows.
 */
import { readFileSync, statSync } from "node:fs";
import { type Config, toolThresholds } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { countLines } from "../../text.ts";
import { fallbackResult } from "./fallback.ts";

type Content = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

export type ToolResultLike = {
  toolName: string;
  input: Record<string, unknown>;
  content: Content[];
  details: unknown;
  isError: boolean;
};

export type Replacement = { content: Content[]; details: Record<string, unknown> } | undefined;

/**
 * Never replaced by a receipt: file contents the model asked for (the read cache handles repeats),
 * and our own retrieval tools (their answers are already what the model asked the store for).
 */
export const NEVER_CAPTURED: ReadonlySet<string> = new Set([
  "read",
  "readcache_refresh",
  "context_search",
  "context_get",
  "context_stats",
  "context_purge",
  "context_index",
  "context_run",
  "context_fetch",
]);
export const MAX_FULL_OUTPUT = 256 * 1024 * 1024;

/** A short note on what produced the output, for `list` and stats. */
export function describeInput(input: Record<string, unknown>): string | null {
  for (const key of ["command", "path", "file_path", "url", "query", "pattern", "tool"]) {
    const v = input[key];
    if (typeof v === "string" && v.trim() !== "") return v.length > 200 ? `${v.slice(0, 199)}…` : v;
  }
  return null;
}

/** pi's bash keeps only the tail and writes the whole output to a file: that file, when it is usable. */
function fullOutputFile(details: unknown): { path: string; bytes: number } | null {
  const path = (details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
  if (typeof path !== "string") return null;
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= MAX_FULL_OUTPUT ? { path, bytes: st.size } : null;
  } catch {
    return null;
  }
}

/** Details without pi's second full copy of the text (truncation.content). */
function slimDetails(details: unknown): Record<string, unknown> {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return details === undefined ? {} : { original: details };
  const copy: Record<string, unknown> = { ...(details as Record<string, unknown>) };
  const truncation = copy.truncation;
  if (typeof truncation === "object" && truncation !== null && "content" in truncation) {
    const { content: _dropped, ...rest } = truncation as Record<string, unknown>;
    copy.truncation = rest;
  }
  return copy;
}

/** What to store: the text, or (pi cut it and kept the whole in a file) the file, which the engine reads itself. */
function output(event: ToolResultLike, texts: { text: string }[]): { text: string } | { file: string; bytes: number } {
  const full = fullOutputFile(event.details);
  if (full) return { file: full.path, bytes: full.bytes };
  return { text: texts.map((t) => t.text).join("\n") };
}

export async function captureToolResult(
  engine: () => Promise<Engine | null>,
  config: Readonly<Config>,
  event: ToolResultLike,
  scope: { session: string; project: string },
  engineProblem: () => string,
): Promise<Replacement> {
  if (NEVER_CAPTURED.has(event.toolName)) return undefined;
  const texts = event.content.filter((c): c is Extract<Content, { type: "text" }> => c.type === "text");
  if (texts.length === 0) return undefined;
  const limits = toolThresholds(config, event.toolName);
  if (!limits.enabled) return undefined;
  const out = output(event, texts);
  // A file pi wrote is there because pi cut the output: it is over pi's limits, so over ours.
  if ("text" in out && Buffer.byteLength(out.text) <= limits.bytes && countLines(out.text) <= limits.lines) return undefined;
  const images = event.content.filter((c) => c.type !== "text");
  const whole = () => ("text" in out ? out.text : readFileSync(out.file, "utf8"));
  const e = await engine();
  if (!e) return fallback(event, whole(), engineProblem(), images);
  try {
    const r = await e.capture({
      ...out,
      tool: event.toolName,
      session: scope.session,
      project: scope.project,
      label: describeInput(event.input),
    });
    if (!r.stored) return undefined;
    const receipt = event.isError ? `${r.receipt}\n(The tool reported an error; the stored output includes it.)` : r.receipt;
    return {
      content: [{ type: "text", text: receipt }, ...images],
      details: { ...slimDetails(event.details), piSidecar: { sourceId: r.sourceId, bytes: r.bytes, lines: r.lines, chunks: r.chunks } },
    };
  } catch (error) {
    return fallback(event, whole(), errorMessage(error), images);
  }
}

function fallback(event: ToolResultLike, text: string, why: string, images: Content[]): Replacement {
  const r = fallbackResult(event.toolName, text, why);
  return {
    content: [{ type: "text", text: r.text }, ...images],
    details: { ...slimDetails(event.details), piSidecar: { fallbackPath: r.path, error: why } },
  };
}
