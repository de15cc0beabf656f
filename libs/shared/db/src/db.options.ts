import * as path from 'path';
import type { EntitySchema } from 'typeorm';

/** How to reach the one SQLite app database that the API and the worker share. */
export interface DbOptions {
  databasePath: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- TypeORM's own entity list type
  entities: (Function | EntitySchema)[];
  /** How long a statement waits for another connection's lock before SQLITE_BUSY. Default 5000. */
  busyTimeoutMs?: number;
  logging?: boolean;
}

export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

export interface ResolvedDbOptions {
  databasePath: string;
  busyTimeoutMs: number;
}

export function resolveDbOptions(opts: { databasePath: string; busyTimeoutMs?: number }): ResolvedDbOptions {
  const raw = opts.databasePath?.trim();
  // Every unit opens a fresh connection, so an in-memory or temporary database would be a new empty
  // database each time: reject it rather than let writes vanish silently.
  if (!raw || raw === ':memory:' || raw.startsWith('file:')) {
    throw new Error(`databasePath must be a file path, got ${JSON.stringify(opts.databasePath)}`);
  }
  const busyTimeoutMs = opts.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
  if (!Number.isInteger(busyTimeoutMs) || busyTimeoutMs < 0) {
    throw new Error(`busyTimeoutMs must be a non-negative integer, got ${busyTimeoutMs}`);
  }
  // API and worker may start from different working directories; both must land on the same file.
  return { databasePath: path.resolve(raw), busyTimeoutMs };
}
