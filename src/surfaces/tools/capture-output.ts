/**
 * The tool_result hook, shared by pi and the MCP server: a text result over the threshold goes
 * to the store and the model gets the receipt instead; images and small results pass untouched;
 * the session keeps the source id in `details`, never the full text. A sidecar failure never
 * breaks the tool call. What the model asked for by path (`read`) and what it retrieved from
 * the store are never replaced: pi's own cut and the read cache decide what a read shows.
 */
import { readFileSync } from "node:fs";
import { type Config, toolThresholds } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { countLines } from "../../text.ts";
import { hostBaseline } from "./baseline.ts";
import { fallbackResult } from "./fallback.ts";
import { type FullOutput, fullOutputFile } from "./full-output-file.ts";

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
  "context_search",
  "context_get",
  "context_stats",
  "context_purge",
  "context_index",
  "context_run",
  "context_fetch",
]);

/** A short note on what produced the output, for `list` and stats. */
export function describeInput(input: Record<string, unknown>): string | null {
  for (const key of ["command", "path", "file_path", "url", "query", "pattern", "tool"]) {
    const v = input[key];
    if (typeof v === "string" && v.trim() !== "") return v.length > 200 ? `${v.slice(0, 199)}…` : v;
  }
  return null;
}

/**
 * Details without pi's cut: the model got a receipt, not pi's truncated text, so pi must not
 * render its "Truncated: ... (50.0KB limit)" footer under it. What pi cut is kept, without pi's
 * second full copy of the text, as `hostCut` (never under the keys pi's renderers read).
 */
function slimDetails(details: unknown): Record<string, unknown> {
  if (typeof details !== "object" || details === null || Array.isArray(details)) return details === undefined ? {} : { original: details };
  const { truncation, fullOutputPath, ...copy } = details as Record<string, unknown>;
  if (typeof truncation === "object" && truncation !== null) {
    const { content: _dropped, ...rest } = truncation as Record<string, unknown>;
    copy.hostCut = { ...rest, ...(fullOutputPath === undefined ? {} : { fullOutputPath }) };
  } else if (fullOutputPath !== undefined) copy.hostCut = { fullOutputPath };
  return copy;
}

/** What to store: the text, or (pi cut it and kept the whole in a file) the file, which the engine reads itself. */
function output(event: ToolResultLike, texts: { text: string }[]): { text: string } | { file: string; full: FullOutput } {
  const text = texts.map((t) => t.text).join("\n");
  const full = fullOutputFile(event.toolName, text, event.details, event.isError);
  return full ? { file: full.path, full } : { text };
}

/** What the receipt adds for a failed command: its status (the file pi kept has the output only). */
function errorNote(out: ReturnType<typeof output>, isError: boolean): string {
  if ("full" in out && out.full.status !== null) return `\n(${out.full.status}; the stored text is its whole output.)`;
  return isError ? "\n(The tool reported an error; the stored output includes it.)" : "";
}

export async function captureToolResult(
  engine: () => Promise<Engine | null>,
  config: Readonly<Config>,
  event: ToolResultLike,
  /** `host`: who would have shown the result (e.g. "pi 0.87.1"), for the baseline; unknown in MCP server mode. */
  scope: { session: string; project: string; host?: string },
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
      ...("text" in out ? { text: out.text } : { file: out.file }),
      tool: event.toolName,
      session: scope.session,
      project: scope.project,
      label: describeInput(event.input),
      baseline: hostBaseline(event, "file" in out, texts, scope.host),
    });
    if (!r.stored) return undefined;
    const receipt = `${r.receipt}${errorNote(out, event.isError)}`;
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
