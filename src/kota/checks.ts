/**
 * The argument checks both backends make the same way, so the same bad input fails the same way
 * whichever backend answers (each message says what to send instead).
 */
import { fail, type Result } from "../errors.ts";
import { type DepsDirection, type DepsOptions, KOTA_ERRORS } from "./contract.ts";

export const MAX_DEPTH = 3;
const DIRECTIONS: readonly DepsDirection[] = ["dependents", "dependencies", "both"];

export function checkDeps(opts: DepsOptions): Result<{ depth: number; direction: DepsDirection }> {
  const depth = opts.depth ?? 1;
  if (!Number.isInteger(depth) || depth < 1 || depth > MAX_DEPTH) {
    return fail(
      KOTA_ERRORS.BAD_INPUT,
      `depth must be 1, 2 or 3 (got ${opts.depth}); deeper levels of a hub file list most of the repository.`,
    );
  }
  const direction = opts.direction ?? "both";
  if (!DIRECTIONS.includes(direction)) {
    return fail(KOTA_ERRORS.BAD_INPUT, `direction must be dependents, dependencies or both (got ${direction}).`);
  }
  return { ok: true, depth, direction };
}
