/**
 * Export: a source's whole stored (redacted) text to a file, checked against its hash. A regular
 * file is written beside the target and renamed into place, so a failed export (a full disk, a
 * damaged row) leaves no partial file and never clobbers what was there.
 */
import { closeSync, existsSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { errorMessage, fail, type Result } from "../errors.ts";
import { sha256Stream } from "../hash.ts";
import type { EngineDeps } from "./engine-deps.ts";
import { findSource } from "./get.ts";

function cannotWrite(path: string, error: unknown) {
  const code = (error as { code?: string }).code;
  const why = code === "ENOSPC" ? "the disk is full" : code === "EACCES" || code === "EPERM" ? "permission denied" : errorMessage(error);
  return fail("CANNOT_WRITE", `Cannot write ${path}: ${why}. Nothing was written; choose another place with --out.`);
}

export function exportSource(
  deps: EngineDeps,
  handle: string,
  outPath: string,
  overwrite = false,
): Result<{ bytes: number; path: string }> {
  const found = findSource(deps, handle);
  if (!found.ok) return found;
  const src = found.source;
  const exists = existsSync(outPath);
  if (exists && !overwrite) return fail("EXISTS", `${outPath} already exists; choose another path or pass --force to overwrite it.`);
  // A device or pipe (e.g. /dev/stdout) is written directly; a file goes through a temporary one.
  const special = exists && !statSync(outPath).isFile();
  const target = special ? outPath : join(dirname(outPath), `.${basename(outPath)}.${process.pid}.partial`);
  let fd: number;
  try {
    fd = openSync(target, special ? "w" : "wx", 0o600);
  } catch (error) {
    return cannotWrite(outPath, error);
  }
  const hasher = sha256Stream();
  let bytes = 0;
  try {
    const rows = deps.db.query<{ content: string }, [number]>("SELECT content FROM chunks WHERE blob_id = ? ORDER BY ordinal");
    for (const row of rows.iterate(src.blob_id)) {
      const buf = Buffer.from(row.content);
      writeSync(fd, buf);
      hasher.update(buf);
      bytes += buf.length;
    }
    closeSync(fd);
  } catch (error) {
    closeSync(fd);
    if (!special) unlinkSync(target);
    return cannotWrite(outPath, error);
  }
  if (hasher.digest("hex") !== src.hash) {
    if (!special) unlinkSync(target);
    return fail(
      "DB_CORRUPT",
      `Source ${handle} does not match its stored hash; the database may be damaged. Run "pi-sidecar purge --source ${handle}".`,
    );
  }
  if (!special) renameSync(target, outPath);
  return { ok: true, bytes, path: outPath };
}
