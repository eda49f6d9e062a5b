/**
 * When the engine cannot be reached, a tool result still reaches the model: cut like pi cuts
 * (the last 2,000 lines or 50 KiB) with the full text in a 0600 temp file, and a note saying so.
 */
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const MAX_LINES = 2000;
const MAX_BYTES = 50 * 1024;

export function tailCut(text: string): { text: string; cut: boolean; fromLine: number; totalLines: number } {
  const lines = text.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  const totalLines = lines.length;
  let kept = lines.slice(-MAX_LINES);
  while (kept.length > 1 && Buffer.byteLength(kept.join("\n")) > MAX_BYTES) kept = kept.slice(Math.ceil(kept.length / 10));
  let out = kept.join("\n");
  if (Buffer.byteLength(out) > MAX_BYTES) out = Buffer.from(out).subarray(-MAX_BYTES).toString("utf8");
  return { text: out, cut: out.length < text.length, fromLine: totalLines - kept.length + 1, totalLines };
}

/** Writes the full text to a private temp file and returns the model-facing replacement. */
export function fallbackResult(tool: string, text: string, why: string): { text: string; path: string | null } {
  let path: string | null = null;
  try {
    const dir = mkdtempSync(join(tmpdir(), "pi-sidecar-"));
    path = join(dir, `${tool.replace(/[^\w.-]/g, "_")}-output.txt`);
    writeFileSync(path, text, { mode: 0o600 });
  } catch {
    path = null;
  }
  const where = path ? `The full output is in ${path} (readable only by you).` : "The full output could not be saved.";
  const note = `[pi-sidecar could not store this output (${why}). ${where}]`;
  const cut = tailCut(text);
  const body = cut.cut ? `${cut.text}\n\n[Showing lines ${cut.fromLine}-${cut.totalLines} of ${cut.totalLines}.]` : cut.text;
  return { text: `${body}\n\n${note}`, path };
}
