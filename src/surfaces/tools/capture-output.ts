/**
 * The tool_result hook: a text result over the threshold goes to the store and the model gets
 * the receipt instead; images and small results pass untouched; the session keeps the source
 * id in `details`, never the full text. A sidecar failure never breaks the tool call.
 */
import { readFileSync, statSync } from "node:fs";
import { type Config, toolThresholds } from "../../config.ts";
import type { Engine } from "../../engine.ts";
import { errorMessage } from "../../errors.ts";
import { absolutePath } from "../../paths.ts";
import { isSensitiveFile } from "../../readcache/sensitive.ts";
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

/** Our own retrieval tools are never captured again. */
const OWN_TOOLS = new Set(["context_search", "context_get", "context_stats", "context_purge"]);
const MAX_FULL_OUTPUT = 256 * 1024 * 1024;

/** A short note on what produced the output, for `list` and stats. */
export function describeInput(input: Record<string, unknown>): string | null {
  for (const key of ["command", "path", "file_path", "url", "query", "pattern", "tool"]) {
    const v = input[key];
    if (typeof v === "string" && v.trim() !== "") return v.length > 200 ? `${v.slice(0, 199)}…` : v;
  }
  return null;
}

/** pi's bash keeps only the tail and writes the whole output to a file: store the whole. */
function fullOutput(details: unknown): string | null {
  const path = (details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
  if (typeof path !== "string") return null;
  try {
    if (statSync(path).size > MAX_FULL_OUTPUT) return null;
    return readFileSync(path, "utf8");
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

export async function captureToolResult(
  engine: Engine | null,
  config: Readonly<Config>,
  event: ToolResultLike,
  scope: { session: string; project: string },
  engineProblem: () => string,
): Promise<Replacement> {
  if (OWN_TOOLS.has(event.toolName)) return undefined;
  // A sensitive file read is never stored, however big (redaction is a safety net, not a licence).
  if (
    event.toolName === "read" &&
    typeof event.input.path === "string" &&
    isSensitiveFile(absolutePath(scope.project, event.input.path), config.readcache.sensitive)
  )
    return undefined;
  const texts = event.content.filter((c): c is Extract<Content, { type: "text" }> => c.type === "text");
  if (texts.length === 0) return undefined;
  const limits = toolThresholds(config, event.toolName);
  const text = fullOutput(event.details) ?? texts.map((t) => t.text).join("\n");
  if (!limits.enabled || (Buffer.byteLength(text) <= limits.bytes && countLines(text) <= limits.lines)) return undefined;
  const images = event.content.filter((c) => c.type !== "text");
  if (engine) {
    try {
      const r = await engine.capture({
        text,
        tool: event.toolName,
        session: scope.session,
        project: scope.project,
        label: describeInput(event.input),
      });
      if (!r.stored) return undefined;
      const receipt = event.isError ? `${r.receipt}\n(The tool reported an error; the stored output includes it.)` : r.receipt;
      return {
        content: [{ type: "text", text: receipt }, ...images],
        details: {
          ...slimDetails(event.details),
          piSidecar: { sourceId: r.sourceId, bytes: r.bytes, lines: r.lines, chunks: r.chunks },
        },
      };
    } catch (error) {
      return fallback(event, text, errorMessage(error), images);
    }
  }
  return fallback(event, text, engineProblem(), images);
}

function fallback(event: ToolResultLike, text: string, why: string, images: Content[]): Replacement {
  const r = fallbackResult(event.toolName, text, why);
  return {
    content: [{ type: "text", text: r.text }, ...images],
    details: { ...slimDetails(event.details), piSidecar: { fallbackPath: r.path, error: why } },
  };
}
