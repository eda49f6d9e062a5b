/**
 * How the rewrite after a purge or forget (db/rewrite.ts) is said to the user. No dependencies:
 * the pi extension's Node bundle uses it without the engine.
 */
import { formatBytes } from "./units.ts";

/** The rewrite's result, as the engine reports it. */
export type RewriteReport = {
  ok: boolean;
  skipped?: boolean;
  ms: number;
  bytesBefore: number;
  bytesAfter: number;
  reason?: string;
};

/** What an answer adds when the rewrite was started in the background. */
export const REWRITE_RUNNING =
  " The file is being rewritten in the background (seconds on a large store), so no old copy of the deleted text stays in it.";

/** One line for the user once a rewrite ended. */
export function describeRewrite(o: RewriteReport): string {
  if (o.skipped) return "The file had already been rewritten: no copy of the deleted text is left in it.";
  if (!o.ok) return `The file could not be rewritten yet (${o.reason}); until it is, old copies of deleted text stay in its free space.`;
  const size = o.bytesBefore !== o.bytesAfter ? `${formatBytes(o.bytesBefore)} → ${formatBytes(o.bytesAfter)}, ` : "";
  return `The file was rewritten (${size}${(o.ms / 1000).toFixed(1)} s): no copy of the deleted text is left in it.`;
}
