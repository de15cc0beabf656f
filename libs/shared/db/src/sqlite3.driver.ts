import * as fs from 'fs';
import * as path from 'path';
import * as sqlite3 from 'sqlite3';
import { isBusyError } from './sqlite.errors';

type OpenCallback = (this: sqlite3.Database, err: Error | null) => void;

const WAL_RETRY_PAUSE_MS = 10;

let openConnections = 0;

/**
 * Connections opened through this lib and not yet closed, across every DataSource and unit of work
 * in the process. A diagnostic: tests use it to prove that every exit path closes its connection.
 */
export function openConnectionCount(): number {
  return openConnections;
}

/**
 * A stand-in for the `sqlite3` module, handed to TypeORM as its `driver`, whose Database is counted
 * and fully configured before its open callback runs: busy timeout, then WAL, then foreign keys.
 *
 * TypeORM's SqliteDriver sends `PRAGMA journal_mode = WAL` before its `PRAGMA busy_timeout`, and
 * even with a busy timeout SQLite refuses (SQLITE_BUSY, no waiting) a WAL conversion that races
 * another connection's, because both hold SHARED and waiting could deadlock. When the API and the
 * worker open a fresh database at once, one of them would fail to start. So the conversion is
 * retried here, off the libuv pool, within the busy timeout; TypeORM's own pragmas then find the
 * file already in WAL. A connection whose setup fails is closed here, since TypeORM does not close
 * a handle whose pragmas failed.
 */
export function instrumentedSqlite3(busyTimeoutMs: number): typeof sqlite3 {
  function Database(filename: string, modeOrCallback?: number | OpenCallback, maybeCallback?: OpenCallback): sqlite3.Database {
    const mode = typeof modeOrCallback === 'number' ? modeOrCallback : undefined;
    const callback = typeof modeOrCallback === 'function' ? modeOrCallback : maybeCallback;
    const onOpen = (err: Error | null): void => {
      if (err) {
        callback?.call(db, err);
        return;
      }
      openConnections += 1;
      db.once('close', () => {
        openConnections -= 1;
      });
      db.configure('busyTimeout', busyTimeoutMs);
      configure(db, busyTimeoutMs).then(
        () => callback?.call(db, null),
        (setupError: Error) =>
          db.close(() => {
            callback?.call(db, setupError);
          }),
      );
    };
    const db = mode === undefined ? new sqlite3.Database(filename, onOpen) : new sqlite3.Database(filename, mode, onOpen);
    return db;
  }
  const driver = { ...sqlite3, Database } as unknown as typeof sqlite3;
  // TypeORM calls verbose() and keeps what it returns. The real verbose() would hand back the
  // uncounted module, and its long stack traces cost an Error per statement.
  (driver as { verbose: () => typeof sqlite3 }).verbose = () => driver;
  return driver;
}

async function configure(db: sqlite3.Database, busyTimeoutMs: number): Promise<void> {
  const deadline = Date.now() + busyTimeoutMs;
  for (;;) {
    try {
      // One round trip: a unit of work pays this on every open.
      await exec(db, 'PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON;');
      return;
    } catch (error) {
      if (!isBusyError(error) || Date.now() >= deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, WAL_RETRY_PAUSE_MS));
    }
  }
}

/** Opens one fully configured connection (see instrumentedSqlite3); the parent folder must exist. */
export function openConnection(driver: typeof sqlite3, databasePath: string): Promise<sqlite3.Database> {
  return new Promise<sqlite3.Database>((resolve, reject) => {
    const handle: sqlite3.Database = new driver.Database(databasePath, (err) => (err ? reject(err) : resolve(handle)));
  });
}

/** The database file and the files SQLite keeps beside it (WAL mode: -wal and -shm; -journal otherwise). */
const SQLITE_SIDECARS = ['', '-wal', '-shm', '-journal'];

/**
 * Makes the database private to its user before SQLite opens it (security issue #39): it holds the
 * user's facts, postings and applications.
 *
 * - SQLite creates the file but not its folder (a fresh app dir would fail with CANTOPEN): a missing
 *   folder is created 0700. One that exists is left as it is: database_path may point into any
 *   folder of the user's; the app dir itself is tightened by `npm start` (tools/stack/app-dir.js).
 * - SQLite creates the file with 0644 less the umask (usually 0644), so a missing file is created
 *   here first, empty and 0600 (an empty file is a valid empty database). SQLite creates -wal and
 *   -shm with the database file's own mode, so they follow.
 * - A file an older version left readable by others (0644) is tightened to 0600, with its -wal/-shm:
 *   that fixes an existing install the next time the API or the worker opens it. Explicit modes here
 *   rather than a umask: this runs in every process that opens the database (apps, tools, tests).
 * Symlinks are not followed for the chmod, and a file owned by another user is left alone (EPERM).
 */
export function prepareDatabaseFile(databasePath: string): void {
  fs.mkdirSync(path.dirname(databasePath), { recursive: true, mode: 0o700 });
  try {
    fs.closeSync(fs.openSync(databasePath, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL, 0o600));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  for (const suffix of SQLITE_SIDECARS) {
    const file = databasePath + suffix;
    try {
      const stat = fs.lstatSync(file);
      if (stat.isFile() && (stat.mode & 0o077) !== 0) fs.chmodSync(file, stat.mode & 0o700);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EPERM') throw err;
    }
  }
}

export function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

export function closeConnection(db: sqlite3.Database): Promise<void> {
  return new Promise((resolve, reject) => db.close((err) => (err ? reject(err) : resolve())));
}
