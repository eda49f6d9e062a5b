/**
 * The file changes an install or uninstall makes, planned first and applied second: `--dry-run`
 * prints each as a unified diff and writes nothing; otherwise every file that already existed
 * and changes is first copied to `<file>.pi-sidecar-backup-<time>`, then written whole through a
 * temp file and a rename (a crash never leaves half a file). A file whose text would not change
 * is not touched, so running it twice changes nothing the second time.
 */
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { createTwoFilesPatch } from "diff";

/** One file: its text now (null: absent) and after (null: removed). */
export type Change = { path: string; before: string | null; after: string | null; executable?: boolean };

export function readText(path: string): string | null {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}

/** A change for `path` from its current text through `edit` (which returns the new text, or null to remove it). */
export function changeFile(path: string, edit: (text: string | null) => string | null): Change {
  const before = readText(path);
  return { path, before, after: edit(before) };
}

export function effective(changes: Change[]): Change[] {
  return changes.filter((c) => c.before !== c.after);
}

export function diffOf(c: Change): string {
  return createTwoFilesPatch(
    c.before === null ? "/dev/null" : c.path,
    c.after === null ? "/dev/null" : c.path,
    c.before ?? "",
    c.after ?? "",
    "",
    "",
    { context: 3 },
  );
}

function stamp(now: Date): string {
  return now.toISOString().replace(/[-:]/g, "").replace(/\..*$/, "");
}

export type Applied = { path: string; action: "created" | "updated" | "removed"; backup: string | null };

/** Writes the changes; returns what was done to each file, with its backup. */
export function applyChanges(changes: Change[], now = new Date()): Applied[] {
  const done: Applied[] = [];
  for (const c of effective(changes)) {
    let backup: string | null = null;
    if (c.before !== null && existsSync(c.path)) {
      backup = `${c.path}.pi-sidecar-backup-${stamp(now)}`;
      copyFileSync(c.path, backup);
    }
    if (c.after === null) {
      rmSync(c.path, { force: true });
      done.push({ path: c.path, action: "removed", backup });
      continue;
    }
    mkdirSync(dirname(c.path), { recursive: true });
    const tmp = `${c.path}.${process.pid}.tmp`;
    const mode = c.before !== null ? statSync(c.path).mode & 0o777 : c.executable ? 0o755 : 0o644;
    writeFileSync(tmp, c.after, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, c.path);
    done.push({ path: c.path, action: c.before === null ? "created" : "updated", backup });
  }
  return done;
}
