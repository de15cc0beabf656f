/**
 * An in-process queue in front of SQLite's single writer slot, one per database file.
 *
 * SQLite waits for a busy lock inside its busy handler, which sleeps on the libuv thread that runs
 * the statement. With enough units waiting for the writer at once, every libuv thread sleeps in a
 * busy handler and the unit that holds the lock cannot get a thread to COMMIT: everyone times out
 * with SQLITE_BUSY. Queueing same-process writers here costs no thread, so at most one thread per
 * database waits in SQLite — for a writer in another process (API vs worker), which is what the
 * busy timeout is for.
 */

export class WriterReservationTimeoutError extends Error {
  override readonly name = 'WriterReservationTimeoutError';
  // Same code as SQLite's own lock timeout, so callers classify both waits alike.
  readonly code = 'SQLITE_BUSY' as const;

  constructor(
    readonly databasePath: string,
    readonly waitedMs: number,
  ) {
    super(`SQLITE_BUSY: another unit in this process held the writer reservation on ${databasePath} for ${waitedMs} ms`);
  }
}

interface WriterQueue {
  held: boolean;
  waiters: (() => void)[];
}

const queues = new Map<string, WriterQueue>();

/** Waits (up to timeoutMs) for this process's writer turn on databasePath; returns its release. */
export async function acquireWriterTurn(databasePath: string, timeoutMs: number): Promise<() => void> {
  let queue = queues.get(databasePath);
  if (!queue) {
    queue = { held: false, waiters: [] };
    queues.set(databasePath, queue);
  }
  const current = queue;
  if (current.held) {
    await new Promise<void>((resolve, reject) => {
      const wake = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const index = current.waiters.indexOf(wake);
        if (index >= 0) current.waiters.splice(index, 1);
        reject(new WriterReservationTimeoutError(databasePath, timeoutMs));
      }, timeoutMs);
      current.waiters.push(wake);
    });
  }
  // Either the queue was free or the previous holder handed its turn straight to us.
  current.held = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = current.waiters.shift();
    if (next) {
      next();
    } else {
      current.held = false;
      queues.delete(databasePath);
    }
  };
}
