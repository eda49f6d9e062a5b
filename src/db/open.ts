import { constants, Database } from "bun:sqlite";
import { accessSync, chmodSync, existsSync, constants as fs, mkdirSync, statfsSync, statSync } from "node:fs";
import { dirname } from "node:path";
import { AppError, errorMessage } from "../errors.ts";
import { MIGRATIONS } from "./migrations.ts";

export type Db = Database;

/**
 * Bun keeps the first 20 distinct statements a connection prepares and prepares any other one
 * again each time it runs (about 10 µs each): a host that captured, read and remembered before it
 * searched would prepare a search's dozen statements on every search. Room for every hot one. Set
 * when a database opens, not when this module loads: the pi extension on Node bundles this module
 * without ever opening a database, and must not load bun:sqlite.
 */
function roomForStatements(): void {
  Database.MAX_QUERY_CACHE_SIZE = 200;
}

const BUSY_TIMEOUT_MS = 15_000;

function sqliteCode(error: unknown): string {
  return typeof error === "object" && error !== null && "code" in error ? String((error as { code: unknown }).code) : "";
}

/** Another connection holds the lock this statement needed. */
export function isBusy(error: unknown): boolean {
  const code = sqliteCode(error);
  return code.startsWith("SQLITE_BUSY") || code.startsWith("SQLITE_LOCKED");
}

/** Turns SQLite's open/read failures into an error that names the file and what to do. */
function explain(path: string, error: unknown): AppError {
  const code = sqliteCode(error);
  const reason = errorMessage(error);
  if (code.startsWith("SQLITE_NOTADB") || code.startsWith("SQLITE_CORRUPT")) {
    return new AppError(
      "DB_CORRUPT",
      `The database ${path} is damaged or is not a pi-sidecar database (${reason}). ` +
        `Move it aside (mv "${path}" "${path}.bad") and run again to start a fresh store, ` +
        `or point --db / PI_SIDECAR_DB at another file.`,
      { cause: error },
    );
  }
  if (
    code.startsWith("SQLITE_CANTOPEN") ||
    code.startsWith("SQLITE_PERM") ||
    code.startsWith("SQLITE_READONLY") ||
    code.startsWith("SQLITE_IOERR")
  ) {
    return new AppError(
      "DB_UNREADABLE",
      `Cannot open the database ${path} (${reason}). Check that the file and its folder exist and are ` +
        `readable and writable by this user, or point --db / PI_SIDECAR_DB at another file.`,
      { cause: error },
    );
  }
  return new AppError("DB_ERROR", `Database ${path}: ${reason}`, { cause: error });
}

export type OpenOptions = {
  migrations?: readonly string[];
  /** Open for reading only (the web page; a file this user cannot write is opened so anyway). */
  readonly?: boolean;
  /** Told what was changed about the file (its permissions tightened); stderr by default. */
  notice?: (text: string) => void;
  /**
   * How long one statement waits for another process's write lock inside SQLite (a blocking
   * wait). An engine inside pi's own process keeps it short and waits with async retries instead.
   */
  busyTimeoutMs?: number;
};

/**
 * Opens (creating if needed) the one SQLite file: WAL, busy timeout, foreign keys,
 * incremental auto-vacuum, and migrations by user_version inside an IMMEDIATE transaction,
 * so several processes opening a new file at once migrate it exactly once.
 */
/** Opens a database that must already exist, read-only; an older schema is said plainly (upgrading it would write). */
export function openExistingReadOnly(path: string): Db {
  if (!existsSync(path))
    throw new AppError(
      "DB_MISSING",
      `No database at ${path} yet. If pi uses another file, pass --db PATH (or set PI_SIDECAR_DB), then try again.`,
    );
  try {
    return openDatabase(path, { readonly: true });
  } catch (error) {
    if (error instanceof AppError && error.code === "DB_READONLY")
      throw new AppError(
        "DB_OLD_SCHEMA",
        `The database ${path} was written by an older pi-sidecar and needs an upgrade, which a read-only reader does not make. ` +
          `Run pi-sidecar --db "${path}" stats once (it upgrades the file), then try again.`,
        { cause: error },
      );
    throw error;
  }
}

export function openDatabase(path: string, options: OpenOptions = {}): Db {
  const migrations = options.migrations ?? MIGRATIONS;
  const notice = options.notice ?? ((text: string) => void process.stderr.write(`pi-sidecar: ${text}\n`));
  const isMemory = path === ":memory:";
  const isNew = !isMemory && !existsSync(path);
  if (!isMemory) {
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
    } catch (error) {
      throw explain(path, Object.assign(new Error(errorMessage(error)), { code: "SQLITE_CANTOPEN" }));
    }
  }
  // A file this user cannot write is opened read-only: searches and gets still work.
  const readonly = !isMemory && !isNew && (options.readonly === true || !writable(path));
  let db: Database;
  roomForStatements();
  try {
    db = readonly ? new Database(path, { readonly: true, strict: true }) : new Database(path, { create: true, strict: true });
  } catch (error) {
    throw explain(path, error);
  }
  try {
    if (isNew) chmodSync(path, 0o600);
    db.exec(`PRAGMA busy_timeout = ${options.busyTimeoutMs ?? BUSY_TIMEOUT_MS}`);
    // The first real read: fails here on a file that is not a database. Nothing is changed in
    // the file before it is known to be ours and not newer than this build.
    const version = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    // (Tests and tools that open a database with their own migrations skip this.)
    if (options.migrations === undefined) checkOwnership(db, path, migrations.length);
    else if (version > migrations.length)
      throw new AppError("DB_TOO_NEW", `The database ${path} has schema version ${version}, newer than expected (${migrations.length}).`);
    if (readonly) {
      if (version < migrations.length) {
        throw new AppError(
          "DB_READONLY",
          `The database ${path} is read-only and needs an upgrade this pi-sidecar cannot write. Make it writable (chmod u+w "${path}") or point --db / PI_SIDECAR_DB at another file.`,
        );
      }
      db.exec("PRAGMA query_only = ON");
      return db;
    }
    if (!isMemory && !isNew) tightenPermissions(path, notice);
    if (version === 0) db.exec("PRAGMA auto_vacuum = INCREMENTAL");
    const mode = (db.query("PRAGMA journal_mode = WAL").get() as { journal_mode: string }).journal_mode;
    if (!isMemory && mode.toLowerCase() !== "wal") {
      throw new AppError("DB_ERROR", `Database ${path}: could not switch to WAL mode (got ${mode}); is it on a network file system?`);
    }
    db.exec("PRAGMA synchronous = NORMAL");
    db.exec("PRAGMA foreign_keys = ON");
    // Space freed inside a page (a deleted or moved row) is zeroed at once, at no extra I/O: a
    // forgotten or purged text leaves no stale copy behind in pages that stay in use.
    db.exec("PRAGMA secure_delete = FAST");
    db.exec("PRAGMA journal_size_limit = 67108864");
    db.exec("PRAGMA temp_store = MEMORY");
    db.exec("PRAGMA cache_size = -32768");
    migrate(db, migrations, version);
    return db;
  } catch (error) {
    db.close();
    if (error instanceof AppError) throw error;
    const onFullDisk = isMemory || isNew ? null : openOnFullDisk(path, error, notice, migrations.length);
    if (onFullDisk) return onFullDisk;
    throw explain(path, error);
  }
}

/** Connections opened read-only because the disk is full: a write on one says so. */
const FULL_DISK = new WeakSet<Database>();

function fullDisk(path: string): boolean {
  try {
    const s = statfsSync(dirname(path));
    return s.bavail * s.bsize < 1024 * 1024;
  } catch {
    return false;
  }
}

/**
 * On a full disk SQLite cannot grow the WAL's shared-memory file, so not even a read can start.
 * When the WAL is empty the file alone holds everything: it is read as an immutable file (read
 * only, no shared memory), so stats, searches and gets still answer, and a write says the disk is
 * full. Null when that does not apply (another failure, or changes still in the WAL).
 */
function openOnFullDisk(path: string, error: unknown, notice: (text: string) => void, version: number): Database | null {
  if (!/^SQLITE_(?:FULL|IOERR)/.test(sqliteCode(error)) || !fullDisk(path)) return null;
  try {
    if (statSync(`${path}-wal`).size > 0) return null;
  } catch {
    // no WAL: the file is all there is
  }
  const uri = `file:${path.replace(/[%?#]/g, (c) => encodeURIComponent(c))}?immutable=1`;
  roomForStatements();
  const db = new Database(uri, constants.SQLITE_OPEN_READONLY | constants.SQLITE_OPEN_URI);
  db.exec("PRAGMA query_only = ON");
  // Only a file of this schema: an upgrade would have to write.
  if ((db.query("PRAGMA user_version").get() as { user_version: number }).user_version !== version) {
    db.close();
    return null;
  }
  FULL_DISK.add(db);
  notice(`the disk holding ${path} is full: reading the database as it is; nothing can be stored until space is freed`);
  return db;
}

/** Opened for reading only: searches and gets work; anything that writes fails with DB_READONLY. */
export function isReadOnly(db: Database): boolean {
  return (db.query("PRAGMA query_only").get() as { query_only: number }).query_only === 1;
}

function writable(path: string): boolean {
  try {
    accessSync(path, fs.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** Refuses a file that another program made, or a newer pi-sidecar, before anything in it changes. */
function checkOwnership(db: Database, path: string, known: number): void {
  // One statement, one snapshot: another process may be creating the schema right now, and a
  // version read before its commit beside tables read after it would look like a foreign file.
  const { version, tables, ours } = db
    .query(
      "SELECT (SELECT user_version FROM pragma_user_version) AS version, (SELECT count(*) FROM sqlite_master) AS tables, " +
        "EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'sources') AS ours",
    )
    .get() as { version: number; tables: number; ours: number };
  if (version > known) {
    throw new AppError(
      "DB_TOO_NEW",
      `The database ${path} has schema version ${version}, newer than this pi-sidecar understands (${known}). ` +
        "Upgrade pi-sidecar, or point --db / PI_SIDECAR_DB at another file.",
    );
  }
  if ((version === 0 && tables > 0) || (version > 0 && !ours)) {
    throw new AppError(
      "DB_FOREIGN",
      `The file ${path} is an SQLite database of another program (it has tables pi-sidecar did not make); it was left as it was. ` +
        "Point --db / PI_SIDECAR_DB at another file.",
    );
  }
}

/** The database and its WAL and shared-memory files are readable by their owner only. */
function tightenPermissions(path: string, notice: (text: string) => void): void {
  const loose: string[] = [];
  for (const file of [path, `${path}-wal`, `${path}-shm`]) {
    try {
      const mode = statSync(file).mode & 0o777;
      if ((mode & 0o077) === 0) continue;
      chmodSync(file, mode & 0o700);
      loose.push(`${file} (was ${mode.toString(8)})`);
    } catch {
      // not there, or not ours to change: SQLite will say if it matters
    }
  }
  if (loose.length > 0) notice(`other users could read the database; made it owner-only: ${loose.join(", ")}`);
}

/** The table a migration declares it creates (a `-- creates table: name` line), if it does. */
function createdTable(sql: string): string | null {
  return /^-- creates table: (\w+)$/m.exec(sql)?.[1] ?? null;
}

function migrate(db: Database, migrations: readonly string[], seen: number): void {
  if (seen === migrations.length) return;
  immediate(db, () => {
    // Re-read inside the write lock: another process may have migrated meanwhile.
    const current = (db.query("PRAGMA user_version").get() as { user_version: number }).user_version;
    // A pending migration whose table exists already ran in a build that numbered it earlier
    // (branches were merged in another order): it took the slot of one that did not run, which
    // runs now, and it is not run twice.
    const ran = new Set<number>();
    for (let v = current; v < migrations.length; v++) {
      const table = createdTable(migrations[v]!);
      if (table && db.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) ran.add(v);
    }
    for (let v = Math.max(0, current - ran.size); v < migrations.length; v++) if (!ran.has(v)) db.exec(migrations[v]!);
    db.exec(`PRAGMA user_version = ${migrations.length}`);
  });
}

/**
 * Runs `fn` in a BEGIN IMMEDIATE transaction. The busy timeout already waits for other
 * writers; if a lock is still held past it (a very long writer), wait and try again, so a
 * busy database is a delay, never a failure.
 */
export function immediate<T>(db: Database, fn: () => T, maxWaitMs = 120_000): T {
  const wait = busyWaits(maxWaitMs);
  for (;;) {
    try {
      return db.transaction(fn).immediate();
    } catch (error) {
      Bun.sleepSync(wait(writeFailure(db, error)));
    }
  }
}

/**
 * A write that cannot happen for a reason the user can fix (a read-only file, a full disk) as
 * an AppError that says how; anything else unchanged.
 */
export function writeFailure(db: Database, error: unknown): unknown {
  const code = sqliteCode(error);
  const path = db.filename;
  if (FULL_DISK.has(db) || code.startsWith("SQLITE_FULL") || /disk is full|no space/i.test(errorMessage(error))) {
    return new AppError(
      "DISK_FULL",
      `The disk holding ${path} is full. Free some space, or drop old sources (pi-sidecar purge --older-than 7d), and try again.`,
      { cause: error },
    );
  }
  if (code.startsWith("SQLITE_READONLY") || /readonly database/i.test(errorMessage(error))) {
    return new AppError(
      "DB_READONLY",
      `The database ${path} is read-only, so nothing can be stored or changed (searches and gets still work). ` +
        `Make it writable (chmod u+w "${path}", and its folder), or point --db / PI_SIDECAR_DB at another file.`,
      { cause: error },
    );
  }
  return error;
}

/** A write refused for a reason outside this process (full disk, read-only file, a writer elsewhere past the wait). */
export function isWriteFailure(error: unknown): boolean {
  if (error instanceof AppError) return error.code === "DISK_FULL" || error.code === "DB_READONLY";
  const code = sqliteCode(error);
  return isBusy(error) || code.startsWith("SQLITE_FULL") || code.startsWith("SQLITE_READONLY") || code.startsWith("SQLITE_IOERR");
}

/**
 * How long to wait before trying a busy database again (growing, jittered); rethrows errors that
 * are not "busy", and "busy" past `maxWaitMs`.
 */
function busyWaits(maxWaitMs: number): (error: unknown) => number {
  const started = Date.now();
  let attempt = 0;
  return (error) => {
    if (error instanceof AppError || !isBusy(error) || Date.now() - started > maxWaitMs) throw error;
    return Math.min(1000, 20 * 2 ** attempt++) * (0.5 + Math.random());
  };
}

/**
 * Like `immediate`, for work that awaits inside the transaction (the capture waits for its
 * token count while holding the write lock). The caller must not let anything else use this
 * connection until it settles: the engine runs its operations one at a time.
 */
export async function immediateAsync<T>(db: Database, fn: () => Promise<T>, maxWaitMs = 120_000): Promise<T> {
  // Inside a caller's transaction (which holds the write lock already): a savepoint, as `immediate` nests.
  if (db.inTransaction) return nested(db, fn);
  const wait = busyWaits(maxWaitMs);
  for (;;) {
    try {
      db.exec("BEGIN IMMEDIATE");
      break;
    } catch (error) {
      await Bun.sleep(wait(writeFailure(db, error)));
    }
  }
  try {
    const result = await fn();
    db.exec("COMMIT");
    return result;
  } catch (error) {
    if (db.inTransaction) db.exec("ROLLBACK");
    throw writeFailure(db, error);
  }
}

let savepoints = 0;

async function nested<T>(db: Database, fn: () => Promise<T>): Promise<T> {
  const name = `nested_${++savepoints}`;
  db.exec(`SAVEPOINT ${name}`);
  try {
    const result = await fn();
    db.exec(`RELEASE ${name}`);
    return result;
  } catch (error) {
    db.exec(`ROLLBACK TO ${name}`);
    db.exec(`RELEASE ${name}`);
    throw writeFailure(db, error);
  }
}
