import { DataSource } from 'typeorm';
import type { MigrationInterface } from 'typeorm';
import type { SqliteConnectionOptions } from 'typeorm/driver/sqlite/SqliteConnectionOptions';
import { DbOptions, resolveDbOptions } from './db.options';
import { instrumentedSqlite3, prepareDatabaseFile } from './sqlite3.driver';

export type MigrationClass = new () => MigrationInterface;

/** Options shared by every DataSource this lib builds, so the API, the worker and the tools agree. */
export function sqliteDataSourceOptions(
  opts: DbOptions,
  migrations: MigrationClass[] = [],
): SqliteConnectionOptions {
  const { databasePath, busyTimeoutMs } = resolveDbOptions(opts);
  prepareDatabaseFile(databasePath);
  return {
    type: 'sqlite',
    database: databasePath,
    driver: instrumentedSqlite3(busyTimeoutMs),
    entities: opts.entities,
    migrations,
    // The schema belongs to the migrations: two processes synchronizing one shared file would race
    // each other's DDL, and synchronize may drop columns it does not recognise.
    synchronize: false,
    migrationsRun: false,
    enableWAL: true,
    busyTimeout: busyTimeoutMs,
    logging: opts.logging ?? false,
  };
}

/**
 * A TypeORM DataSource on the shared app database (sqlite3 driver, WAL, busy timeout, foreign keys
 * on). Not initialized: the caller owns its connection's lifetime. Per-request and per-activity work
 * should use withUnitOfWork instead, which keeps no connection open between units.
 */
export function createDataSource(opts: DbOptions): DataSource {
  return new DataSource(sqliteDataSourceOptions(opts));
}
