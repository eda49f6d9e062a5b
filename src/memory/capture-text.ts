/**
 * How what happened in an agent's turn reads as a memory event: a final answer shortened to its
 * first sentences, a failed command with the end of its output (where the error is), a tool
 * error with its first lines, the files a turn edited. Plain text in, plain text out: the
 * surface decides what to capture (and what is sensitive), the service stores it.
 */

/** About two short paragraphs: enough to know what was done, not the whole explanation. */
export const ANSWER_CHARS = 600;
const FAILURE_CHARS = 800;
const FILES_SHOWN = 20;

const squash = (s: string) =>
  s
    .replace(/\r\n?/g, "\n")
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();

/** The answer's first sentences up to ANSWER_CHARS (cut at a sentence or line end when one is near). */
export function shortAnswer(text: string, max = ANSWER_CHARS): string {
  const t = squash(text);
  if (t.length <= max) return t;
  const head = t.slice(0, max);
  const end = Math.max(head.lastIndexOf(". "), head.lastIndexOf(".\n"), head.lastIndexOf("\n"));
  return `${(end > max * 0.5 ? head.slice(0, end + 1) : head).trimEnd()} […]`;
}

/** `command failed (exit 2): CMD` and the last lines of its output. */
export function failedCommand(command: string, output: string): string {
  const exit = /(?:exited with code|exit code:?|exit status:?)\s*(\d+)/i.exec(output)?.[1];
  const body = squash(output.replace(/\n*Command exited with code \d+\s*$/i, ""));
  const tail = body.length > FAILURE_CHARS ? `[…]${body.slice(body.length - FAILURE_CHARS)}` : body;
  return `command failed${exit ? ` (exit ${exit})` : ""}: ${command.trim().slice(0, 400)}${tail ? `\n${tail}` : ""}`;
}

/** `edit failed on src/a.ts: ...` with the first lines of the error. */
export function toolError(tool: string, target: string | null, output: string): string {
  const body = squash(output);
  const head = body.length > FAILURE_CHARS ? `${body.slice(0, FAILURE_CHARS)}[…]` : body;
  return `${tool} failed${target ? ` on ${target}` : ""}: ${head}`;
}

/** `edited: a.ts, b.ts` (at most FILES_SHOWN named). */
export function editedFiles(paths: readonly string[]): string {
  const shown = paths.slice(0, FILES_SHOWN).join(", ");
  return `edited: ${shown}${paths.length > FILES_SHOWN ? ` and ${paths.length - FILES_SHOWN} more` : ""}`;
}
