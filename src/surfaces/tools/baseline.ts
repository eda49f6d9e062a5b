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
