/**
 * Where pi kept the whole output of a command it cut. A result pi returns names the file in
 * `details.fullOutputPath`. When pi's bash throws instead (pi 0.x on a non-zero exit; every
 * version on a timeout or an abort) the details are gone and the file is named only in the cut
 * text's trailer (`[Showing lines A-B of N. Full output: PATH]`, then the status line). A
 * trailer is text the command itself could have printed, so its file counts only when it is one
 * pi makes (`pi-<tool>-<16 hex>.log` in this process's temp folder) and ends with the text shown.
 */
import { closeSync, openSync, readSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, resolve } from "node:path";

export const MAX_FULL_OUTPUT = 256 * 1024 * 1024;

export type FullOutput = { path: string; bytes: number; status: string | null };

/** The cut text, the trailer naming the file, and the status pi appended when the command failed. */
const TRAILER = /^([\s\S]*?)\n\n\[Showing [^\n]*?\. Full output: ([^\n]+)\]\n\n(Command [^\n]+)$/;
/** pi's status line after a failed command's output (a result pi returned with isError). */
const STATUS = /\n\n(Command (?:exited with code -?\d+|aborted|timed out after [^\n]+|terminated without an exit code))$/;
const PI_OUTPUT_FILE = /^pi-[a-z]+-[0-9a-f]{16}\.log$/;

function regularFile(path: string): number | null {
  try {
    const st = statSync(path);
    return st.isFile() && st.size <= MAX_FULL_OUTPUT ? st.size : null;
  } catch {
    return null;
  }
}

/** The file's last bytes, as text, end with what pi showed (its tail, maybe without the last newline). */
function endsWith(path: string, bytes: number, shown: string): boolean {
  const want = shown.replace(/\n+$/, "");
  if (want === "") return false;
  const n = Math.min(bytes, Buffer.byteLength(want) + 64);
  const buffer = Buffer.alloc(n);
  const fd = openSync(path, "r");
  try {
    readSync(fd, buffer, 0, n, bytes - n);
  } finally {
    closeSync(fd);
  }
  return buffer.toString("utf8").replace(/\n+$/, "").endsWith(want);
}

export function fullOutputFile(toolName: string, text: string, details: unknown, isError: boolean): FullOutput | null {
  const named = (details as { fullOutputPath?: unknown } | undefined)?.fullOutputPath;
  if (typeof named === "string") {
    const bytes = regularFile(named);
    return bytes === null ? null : { path: named, bytes, status: isError ? (STATUS.exec(text)?.[1] ?? null) : null };
  }
  if (toolName !== "bash") return null;
  const m = TRAILER.exec(text);
  if (!m) return null;
  const [, shown, path, status] = m as unknown as [string, string, string, string];
  if (!isAbsolute(path) || !PI_OUTPUT_FILE.test(basename(path)) || resolve(dirname(path)) !== resolve(tmpdir())) return null;
  const bytes = regularFile(path);
  try {
    return bytes !== null && endsWith(path, bytes, shown) ? { path, bytes, status } : null;
  } catch {
    return null;
  }
}
