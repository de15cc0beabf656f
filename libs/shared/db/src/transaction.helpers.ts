import type { QueryRunner } from 'typeorm';
import type * as sqlite3 from 'sqlite3';
import { messageOf } from './sqlite.errors';
import { exec } from './sqlite3.driver';

/**
 * Starts a BEGIN IMMEDIATE transaction: it takes SQLite's single writer reservation up front (waiting
 * up to the busy timeout), so a read-then-write unit cannot fail halfway with SQLITE_BUSY_SNAPSHOT.
 * TypeORM's startTransaction only issues a deferred BEGIN, so we send the statement ourselves and
 * then put the runner into the state startTransaction would have left it in; its commit, rollback
 * and nested savepoints then work unchanged.
 */
export async function beginImmediate(queryRunner: QueryRunner): Promise<void> {
  if (queryRunner.isTransactionActive) {
    throw new Error('beginImmediate: a transaction is already active on this query runner');
  }
  await queryRunner.query('BEGIN IMMEDIATE TRANSACTION');
  Object.assign(queryRunner, { isTransactionActive: true, transactionDepth: 1 });
}

function run(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.run(sql, (err) => (err ? reject(err) : resolve())));
}

/**
 * Rolls back whatever transaction is open on the connection and says whether there was one.
 * SQLite exposes no autocommit flag through the sqlite3 driver, and TypeORM cannot know about a
 * transaction opened by a raw `BEGIN`, so we ask SQLite itself: a deferred BEGIN takes no lock and
 * is refused exactly when a transaction is already open.
 */
export async function rollbackOpenTransaction(db: sqlite3.Database): Promise<boolean> {
  try {
    // One round trip in the common case; exec stops at the first failing statement, so when BEGIN
    // is refused the ROLLBACK below is the only one that runs.
    await exec(db, 'BEGIN; ROLLBACK;');
    return false;
  } catch (error) {
    if (!messageOf(error).includes('cannot start a transaction within a transaction')) throw error;
  }
  await run(db, 'ROLLBACK');
  return true;
}
