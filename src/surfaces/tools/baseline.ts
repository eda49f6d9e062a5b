/**
 * A tool result's baseline: what the host would have put in the model's context without
 * pi-sidecar, as that host cuts it. A host that cut the result itself and kept the whole in a
 * file (pi's bash: the last 2,000 lines or 50 KB with its footer; pi 1.x's MCP tools: 20 KB with
 * the middle cut) hands over its cut: that text, as it was about to be sent, is the baseline. A
 * result the host did not cut would have gone in whole.
 */
import type { CaptureBaseline } from "../../engine.ts";
import { formatBytes, formatCount } from "../../units.ts";

type Truncation = { maxLines?: unknown; maxBytes?: unknown };

/** "(at most 2,000 lines or 50.0 KiB, the whole in a file)", from the host's own details where it says. */
function limits(details: unknown): string {
  const t = (details as { truncation?: Truncation } | undefined)?.truncation;
  const lines = typeof t?.maxLines === "number" ? `${formatCount(t.maxLines)} lines` : null;
  const bytes = typeof t?.maxBytes === "number" ? formatBytes(t.maxBytes) : null;
  const most = lines && bytes ? `at most ${lines} or ${bytes}, ` : "";
  return ` (${most}the whole in a file)`;
}

export function hostBaseline(
  event: { toolName: string; details: unknown },
  /** The host cut the result and kept the whole output in a file (that file is what is stored). */
  cut: boolean,
  shown: { text: string }[],
  host: string | undefined,
): CaptureBaseline | undefined {
  // Not cut by an unknown host (MCP server mode): the store's default, the whole output.
  if (!cut) return host ? { kind: "uncut", rule: `uncut: ${host} sends ${event.toolName}'s result whole` } : undefined;
  return {
    kind: "cut",
    text: shown.map((t) => t.text).join("\n"),
    rule: `${host ?? "the host"}'s own cut of ${event.toolName}${limits(event.details)}`,
  };
}

/**
 * Claude Code (measured with 2.1.332 driven by a scripted model, bench/hosts): a Bash output over
 * 30,000 characters is saved to a file and the model gets a note with its first 2 KB; a shorter
 * one goes in whole.
 */
export const CLAUDE_PERSIST_CHARS = 30_000;
const CLAUDE_PREVIEW_BYTES = 2048;

/** What Claude Code sends the model for a Bash output by itself (`savedAs`: the file it names). */
export function claudeCodeCut(output: string, savedAs: string): string {
  if (output.length <= CLAUDE_PERSIST_CHARS) return output;
  const preview = Buffer.from(output)
    .subarray(0, CLAUDE_PREVIEW_BYTES)
    .toString("utf8")
    .replace(/\uFFFD$/, "");
  const kb = (Buffer.byteLength(output) / 1024).toFixed(1);
  return `<persisted-output>\nOutput too large (${kb}KB). Full output saved to: ${savedAs}\n\nPreview (first 2KB):\n${preview}\n...\n</persisted-output>`;
}

/** The hosts a hook runs in (`pi-sidecar hook HOST`), named as the user knows them. */
const HOOK_HOSTS: Record<string, string> = { claude: "Claude Code", codex: "Codex", gemini: "Gemini CLI" };

/**
 * The baseline of a shell output a hook routed through `capture --passthrough --host HOST`:
 * Claude Code's own cut; for a host whose limit pi-sidecar does not know, the whole output, and
 * the rule says so.
 */
export function hookBaseline(host: string | undefined, output: string): CaptureBaseline | undefined {
  if (host === undefined) return undefined;
  const name = HOOK_HOSTS[host] ?? host;
  if (host === "claude")
    return {
      kind: "cut",
      // The file Claude Code names is under the user's ~/.claude; a path of that length stands for it.
      text: claudeCodeCut(output, "/home/user/.claude/projects/-home-user-project/tool-results/bash-0000000000000.txt"),
      rule: `Claude Code's own cut of Bash (over ${formatCount(CLAUDE_PERSIST_CHARS)} characters: a 2 KB preview, the whole in a file)`,
    };
  return { kind: "uncut", rule: `uncut: ${name}'s own limit is not known to pi-sidecar, so the whole output` };
}
