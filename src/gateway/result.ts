/**
 * MCP tool results made into what pi can show a model (text and images): embedded text
 * resources become text with their URI, image resources become images, binary resources and
 * audio are saved to a private temp file that the text names, resource links and structured
 * content are spelled out. Nothing a server returned is dropped.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";

export type PiContent = { type: "text"; text: string } | { type: "image"; data: string; mimeType: string };

let blobDir: string | null = null;

function saveBlob(base64: string, name: string): string {
  blobDir ??= mkdtempSync(join(tmpdir(), "pi-sidecar-mcp-"));
  const path = join(blobDir, `${Date.now()}-${name.replace(/[^\w.-]+/g, "_").slice(-80) || "blob"}`);
  writeFileSync(path, Buffer.from(base64, "base64"), { mode: 0o600 });
  return path;
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}

export function toPiContent(result: CallToolResult): PiContent[] {
  const out: PiContent[] = [];
  for (const block of result.content ?? []) {
    switch (block.type) {
      case "text":
        out.push({ type: "text", text: block.text });
        break;
      case "image":
        out.push({ type: "image", data: block.data, mimeType: block.mimeType });
        break;
      case "audio": {
        const path = saveBlob(block.data, `audio.${block.mimeType.split("/")[1] ?? "bin"}`);
        out.push({ type: "text", text: `[audio ${block.mimeType}, ${Buffer.from(block.data, "base64").length} bytes, saved to ${path}]` });
        break;
      }
      case "resource": {
        const r = block.resource;
        const head = `[resource ${r.uri}${r.mimeType ? ` (${r.mimeType})` : ""}]`;
        if ("text" in r && typeof r.text === "string") out.push({ type: "text", text: `${head}\n${r.text}` });
        else if ("blob" in r && typeof r.blob === "string") {
          if (r.mimeType?.startsWith("image/"))
            out.push({ type: "text", text: head }, { type: "image", data: r.blob, mimeType: r.mimeType });
          else
            out.push({
              type: "text",
              text: `${head} ${Buffer.from(r.blob, "base64").length} bytes, saved to ${saveBlob(r.blob, r.uri.split("/").pop() ?? "resource")}`,
            });
        }
        break;
      }
      case "resource_link":
        out.push({
          type: "text",
          text: `[resource link ${block.name} <${block.uri}>${block.mimeType ? ` ${block.mimeType}` : ""}${block.description ? `: ${block.description}` : ""}]`,
        });
        break;
      default:
        out.push({ type: "text", text: JSON.stringify(block) });
    }
  }
  const structured = result.structuredContent;
  if (structured !== undefined && !out.some((c) => c.type === "text" && sameJson(c.text, structured))) {
    out.push({ type: "text", text: `structured content:\n${JSON.stringify(structured, null, 2)}` });
  }
  if (out.length === 0)
    out.push({ type: "text", text: result.isError ? "(the tool failed and said nothing)" : "(the tool returned nothing)" });
  return out;
}
