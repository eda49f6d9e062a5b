/**
 * `capture --passthrough`: the end of a pipe a hook put behind an agent's shell command. Output
 * under the threshold is printed unchanged, byte for byte; above it, the receipt. It never loses
 * the output: whatever goes wrong (the database, the config, a signal), the bytes it has are
 * printed as they came. With `--exit-marker M` the command's exit status arrives as the last
 * line ("M <status>\n", right after the output), is removed from the output, and becomes this process's exit code,
 * so the pipeline ends with the command's own status in any shell.
 */
import { TOOL_CALLS } from "../../../store/index.ts";
import { decodeUtf8 } from "../../../text.ts";
import { hookBaseline } from "../../tools/baseline.ts";
import { type CommandContext, pathOption, str } from "../command.ts";
import { settleDetached } from "../hand-off.ts";

const MAX_BYTES = 256 * 1024 * 1024;
const TAIL_BYTES = 4096;

/** The marker trailer at the very end of `bytes`: the output before it and the status in it. */
export function splitTrailer(bytes: Uint8Array, marker: string): { output: Uint8Array; status: number } | null {
  const tail = Buffer.from(bytes.subarray(Math.max(0, bytes.length - marker.length - 32))).toString("latin1");
  // The marker follows the output directly (it may not end with a newline): "...outputM 3\n".
  const m = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} (\\d{1,3})\\n$`).exec(tail);
  if (!m) return null;
  return { output: bytes.subarray(0, bytes.length - Buffer.byteLength(m[0], "latin1")), status: Number(m[1]) };
}

function labelOf(ctx: CommandContext): string | null {
  const encoded = str(ctx.values["label-base64"]);
  if (encoded !== undefined) return Buffer.from(encoded, "base64url").toString("utf8");
  return str(ctx.values.label) ?? null;
}

/** Reads stdin to its end, or until a signal says the command is being stopped. */
async function readAll(ctx: CommandContext): Promise<{ bytes: Uint8Array; stopped: boolean }> {
  const parts: Uint8Array[] = [];
  let total = 0;
  // Past the cap only the last bytes are kept: the exit marker is at the very end.
  let tail: Buffer = Buffer.alloc(0);
  let stopped = false;
  let wake: (() => void) | null = null;
  const onSignal = () => {
    stopped = true;
    wake?.();
  };
  const signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT", "SIGHUP"];
  for (const s of signals) process.on(s, onSignal);
  try {
    const iterator = ctx.stdinStream()[Symbol.asyncIterator]();
    while (!stopped) {
      const next = await Promise.race([
        iterator.next(),
        new Promise<IteratorResult<Uint8Array>>((done) => {
          wake = () => done({ done: true, value: undefined });
        }),
      ]);
      if (next.done) break;
      if (total + next.value.length <= MAX_BYTES) parts.push(next.value);
      else tail = Buffer.concat([tail, next.value]).subarray(-TAIL_BYTES);
      total += next.value.length;
    }
  } finally {
    for (const s of signals) process.off(s, onSignal);
  }
  return { bytes: Buffer.concat([...parts, tail]), stopped };
}

export async function runPassthrough(ctx: CommandContext): Promise<number> {
  const marker = str(ctx.values["exit-marker"]);
  const { bytes: received, stopped } = await readAll(ctx);
  let bytes: Uint8Array = received;
  let status = 0;
  if (marker) {
    const split = splitTrailer(received, marker);
    if (split) {
      bytes = split.output;
      status = split.status;
    } else {
      // The command's shell never reported: it was killed, or exec'd something else.
      status = stopped ? 143 : 1;
    }
  }
  let answer: Uint8Array | string = bytes;
  let stored = false;
  try {
    const { text, invalid } = decodeUtf8(bytes);
    // The model reads the receipt: its next calls are tool calls (the MCP server comes with the hook).
    const engine = ctx.createEngine({ calls: TOOL_CALLS, background: "inline", leaveQueued: true });
    const r = await engine.capture({
      text,
      invalidUtf8: invalid,
      tool: str(ctx.values.tool) ?? "bash",
      force: ctx.values.force === true,
      session: str(ctx.values.session) ?? null,
      project: pathOption(ctx.values.project) ?? process.cwd(),
      label: labelOf(ctx),
      baseline: hookBaseline(str(ctx.values.host), text),
    });
    if (r.stored) {
      answer = `${r.receipt}\n`;
      stored = r.duplicateOf === null;
    }
  } catch (error) {
    // Never lose the output: it is shown as it came, and the reason goes to stderr.
    ctx.err(`pi-sidecar: output shown as is, not stored: ${error instanceof Error ? error.message : String(error)}\n`);
  }
  if (typeof answer === "string") ctx.out(answer);
  else ctx.outBytes(answer);
  if (stored) settleDetached(ctx.loaded.config.db, ctx.env);
  return status;
}
