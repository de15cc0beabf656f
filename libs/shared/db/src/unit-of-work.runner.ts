import type * as sqlite3 from 'sqlite3';
import type { EntityManager, QueryRunner } from 'typeorm';
import { SqliteQueryRunner } from 'typeorm/driver/sqlite/SqliteQueryRunner';
import type { SqliteDriver } from 'typeorm/driver/sqlite/SqliteDriver';
import type { DbOptions } from './db.options';
import { metadataHostFor } from './metadata-host.data-source';
import { closeConnection, openConnection } from './sqlite3.driver';
import { beginImmediate, rollbackOpenTransaction } from './transaction.helpers';
import { TransactionUnfinishedError } from './transaction-unfinished.error';
import { acquireWriterTurn } from './writer-reservation';

/**
 * `deferred` takes the write lock at the first write and can then fail with SQLITE_BUSY_SNAPSHOT if
 * another writer committed since this transaction first read; `immediate` reserves the single
 * writer up front (waiting up to the busy timeout) and is the right choice for any transaction that
 * writes. Immediate transactions of one process queue for the writer in JS (see writer-reservation),
 * so prefer them over deferred writes and autocommit writes when many units write at once.
 */
export type TransactionMode = 'deferred' | 'immediate';

/** One connection to the app database, alive only for the duration of one withUnitOfWork call. */
export interface UnitOfWork {
  readonly databasePath: string;
  readonly manager: EntityManager;
  readonly queryRunner: QueryRunner;
  transaction<R>(fn: (manager: EntityManager) => Promise<R>, mode?: TransactionMode): Promise<R>;
}

/** A TypeORM sqlite query runner bound to the unit's own connection instead of the driver's. */
class UnitQueryRunner extends SqliteQueryRunner {
  constructor(
    driver: SqliteDriver,
    private readonly handle: sqlite3.Database,
  ) {
    super(driver);
  }

  override connect(): Promise<sqlite3.Database> {
    return Promise.resolve(this.handle);
  }
}

class ConnectionUnitOfWork implements UnitOfWork {
  private writerReserved = false;

  constructor(
    readonly databasePath: string,
    private readonly busyTimeoutMs: number,
    readonly queryRunner: UnitQueryRunner,
  ) {
    // Callers destructure the unit (`({ manager, transaction }) => …`): keep `this` bound.
    this.transaction = this.transaction.bind(this);
  }

  get manager(): EntityManager {
    return this.queryRunner.manager;
  }

  async transaction<R>(fn: (manager: EntityManager) => Promise<R>, mode: TransactionMode = 'deferred'): Promise<R> {
    const runner = this.queryRunner;
    if (runner.isTransactionActive) {
      // A deferred outer transaction may already have read a snapshot; reserving the writer now
      // could not make those reads safe, so asking for it is a bug in the caller.
      if (mode === 'immediate' && !this.writerReserved) {
        throw new Error('cannot start an immediate transaction inside a deferred one: make the outer transaction immediate');
      }
      // Nested: TypeORM turns this into a savepoint.
      return runner.manager.transaction(fn);
    }
    if (mode === 'deferred') {
      return runner.manager.transaction(fn);
    }
    const releaseTurn = await acquireWriterTurn(this.databasePath, this.busyTimeoutMs);
    try {
      await beginImmediate(runner);
      this.writerReserved = true;
      const result = await fn(runner.manager);
      await runner.commitTransaction();
      return result;
    } catch (error) {
      if (runner.isTransactionActive) {
        // The original error matters more than a failed rollback; closing the connection rolls back anyway.
        await runner.rollbackTransaction().catch(() => undefined);
      }
      throw error;
    } finally {
      this.writerReserved = false;
      releaseTurn();
    }
  }
}

/**
 * Runs fn on a connection of its own and closes that connection on every exit. Writes that fn
 * committed stay committed. A transaction fn left open — through the unit's transaction(), TypeORM's
 * startTransaction or a raw `BEGIN` — is rolled back; if fn otherwise succeeded the unit fails with
 * TransactionUnfinishedError instead of returning a result whose writes were just discarded. If fn
 * threw, its error is rethrown unchanged.
 *
 * Entity metadata is built once per DbOptions object and reused, so reuse the options object (or a
 * UnitOfWorkFactory) rather than building a fresh literal per call.
 */
export async function withUnitOfWork<T>(opts: DbOptions, fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
  const host = await metadataHostFor(opts);
  const { dataSource } = host;
  const handle = await openConnection(dataSource.sqlite3, host.databasePath);

  const queryRunner = new UnitQueryRunner(dataSource.sqliteDriver, handle);
  Object.assign(queryRunner, { manager: dataSource.createEntityManager(queryRunner) });
  const uow = new ConnectionUnitOfWork(host.databasePath, host.busyTimeoutMs, queryRunner);

  let outcome: { ok: true; value: T } | { ok: false; error: unknown };
  try {
    outcome = { ok: true, value: await fn(uow) };
  } catch (error) {
    outcome = { ok: false, error };
  }

  let cleanupError: unknown;
  let unfinished = false;
  try {
    unfinished = await rollbackOpenTransaction(handle);
  } catch (error) {
    cleanupError = error;
  }
  // Anything that kept a reference to the manager past the unit gets TypeORM's "released" error
  // rather than a statement on a closed handle.
  Object.assign(queryRunner, { isReleased: true });
  try {
    await closeConnection(handle);
  } catch (error) {
    cleanupError ??= error;
  }

  if (!outcome.ok) throw outcome.error;
  if (unfinished) throw new TransactionUnfinishedError(host.databasePath);
  if (cleanupError !== undefined) throw cleanupError;
  return outcome.value;
}
