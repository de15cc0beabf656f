import { DataSource, Migration, MigrationExecutor, QueryRunner } from 'typeorm';
import { sqliteDataSourceOptions } from './data-source.factory';
import { ALL_MIGRATIONS } from './migrations/migration.registry';
import { resolveDbOptions } from './db.options';
import { isBusyError } from './sqlite.errors';
import { beginImmediate } from './transaction.helpers';
import { acquireWriterTurn } from './writer-reservation';

export interface MigrationRunOptions {
  databasePath: string;
  busyTimeoutMs?: number;
}

// The API and the worker both migrate at start. Whoever loses the race waits for the winner's
// migration to commit; a single busy timeout (5 s by default) is tuned for short units, not for a
// long data migration, so waiting for the writer reservation is retried up to this much longer bound.
const WRITER_WAIT_LIMIT_MS = 10 * 60_000;
const BUSY_RETRY_PAUSE_MS = 50;

// TypeORM's own bookkeeping table, so the TypeORM CLI (`migration:show`) reads the same history.
const MIGRATIONS_TABLE = 'migrations';

async function withMigrationDataSource<T>(opts: MigrationRunOptions, fn: (ds: DataSource, qr: QueryRunner) => Promise<T>): Promise<T> {
  const dataSource = new DataSource(sqliteDataSourceOptions({ ...opts, entities: [] }, ALL_MIGRATIONS));
  await dataSource.initialize();
  const queryRunner = dataSource.createQueryRunner();
  try {
    return await fn(dataSource, queryRunner);
  } finally {
    await queryRunner.release();
    await dataSource.destroy();
  }
}

/** Names already recorded, read without writing: the bookkeeping table may not exist yet. */
async function executedNames(queryRunner: QueryRunner): Promise<Set<string>> {
  const tables: unknown[] = await queryRunner.query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name = ?`, [
    MIGRATIONS_TABLE,
  ]);
  if (tables.length === 0) return new Set();
  const rows: { name: string }[] = await queryRunner.query(`SELECT name FROM "${MIGRATIONS_TABLE}"`);
  return new Set(rows.map((row) => row.name));
}

/** Takes this process's writer turn, then SQLite's writer slot; returns the turn's release. */
async function reserveWriter(queryRunner: QueryRunner, databasePath: string, deadline: number): Promise<() => void> {
  const releaseTurn = await acquireWriterTurn(databasePath, Math.max(0, deadline - Date.now()));
  try {
    for (;;) {
      try {
        await beginImmediate(queryRunner);
        return releaseTurn;
      } catch (error) {
        if (!isBusyError(error) || Date.now() >= deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, BUSY_RETRY_PAUSE_MS));
      }
    }
  } catch (error) {
    releaseTurn();
    throw error;
  }
}

/** Applies one migration in its own writer transaction; false when another process got there first. */
async function applyMigration(
  queryRunner: QueryRunner,
  executor: MigrationExecutor,
  migration: Migration,
  databasePath: string,
  deadline: number,
): Promise<boolean> {
  const instance = migration.instance;
  if (!instance) throw new Error(`migration ${migration.name} has no instance`);
  if (instance.transaction === false) {
    // Applying outside a transaction would break the guarantee that a racing process never
    // re-applies it; no migration needs this yet.
    throw new Error(`migration ${migration.name} opts out of its transaction, which runMigrations does not support`);
  }
  // foreign_keys cannot change inside a transaction; table rebuilds need it off, as TypeORM does.
  await queryRunner.beforeMigration();
  try {
    const releaseTurn = await reserveWriter(queryRunner, databasePath, deadline);
    try {
      // Re-read under the writer reservation: the other process may have applied it while we waited.
      // This also creates the bookkeeping table, safely, since we hold the only writer slot.
      const executed = await executor.getExecutedMigrations();
      if (executed.some((done) => done.name === migration.name)) {
        await queryRunner.rollbackTransaction();
        return false;
      }
      await instance.up(queryRunner);
      const violations: unknown[] = await queryRunner.query('PRAGMA foreign_key_check');
      if (violations.length > 0) {
        throw new Error(`migration ${migration.name} leaves ${violations.length} foreign key violation(s): ${JSON.stringify(violations.slice(0, 5))}`);
      }
      await executor.insertMigration(migration);
      await queryRunner.commitTransaction();
      return true;
    } catch (error) {
      if (queryRunner.isTransactionActive) await queryRunner.rollbackTransaction().catch(() => undefined);
      throw error;
    } finally {
      releaseTurn();
    }
  } finally {
    await queryRunner.afterMigration();
  }
}

/**
 * Applies pending migrations, each in its own BEGIN IMMEDIATE transaction, and returns the names this
 * call applied. Safe to call from the API and the worker at the same moment: the writer reservation
 * serialises them, a busy database is waited for, and a migration the other process applied while
 * this one waited is skipped rather than re-applied.
 */
export async function runMigrations(opts: MigrationRunOptions): Promise<string[]> {
  return withMigrationDataSource(opts, async (dataSource, queryRunner) => {
    const executor = new MigrationExecutor(dataSource, queryRunner);
    const all = await executor.getAllMigrations();
    // Cheap read first so a database that is up to date never takes the writer reservation.
    const done = await executedNames(queryRunner);
    const { databasePath } = resolveDbOptions(opts);
    const deadline = Date.now() + WRITER_WAIT_LIMIT_MS;
    const applied: string[] = [];
    for (const migration of all) {
      if (done.has(migration.name)) continue;
      if (await applyMigration(queryRunner, executor, migration, databasePath, deadline)) applied.push(migration.name);
    }
    return applied;
  });
}

/** Names of migrations not yet applied, oldest first. Read-only: creates no bookkeeping table. */
export async function pendingMigrations(opts: MigrationRunOptions): Promise<string[]> {
  return withMigrationDataSource(opts, async (dataSource, queryRunner) => {
    const all = await new MigrationExecutor(dataSource, queryRunner).getAllMigrations();
    const done = await executedNames(queryRunner);
    return all.filter((migration) => !done.has(migration.name)).map((migration) => migration.name);
  });
}
