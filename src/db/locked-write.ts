/**
 * A write for a server that must keep answering while another process (pi, a CLI command) holds the
 * write lock: its connection's busy timeout is zero, the lock is taken with async retries up to
 * `waitMs`, then a BUSY failure that says nothing changed and to try again.
 */
import { AppError } from "../errors.ts";
import { type Db, immediateAsync, isBusy } from "./open.ts";

export async function lockedWrite<T>(db: Db, waitMs: number, fn: () => Promise<T>): Promise<T> {
  try {
    return await immediateAsync(db, fn, waitMs);
  } catch (error) {
    if (!isBusy(error)) throw error;
    throw new AppError(
      "BUSY",
      `Another process (pi, or a pi-sidecar command) is writing to ${db.filename} and kept it for ${Math.round(waitMs / 1000)} s; ` +
        "nothing was changed. Try again in a moment.",
      { cause: error },
    );
  }
}
