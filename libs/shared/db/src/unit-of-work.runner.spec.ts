import { Column, Entity, PrimaryGeneratedColumn, QueryRunnerAlreadyReleasedError } from 'typeorm';
import { createDataSource } from './data-source.factory';
import type { DbOptions } from './db.options';
import { openConnectionCount } from './sqlite3.driver';
import { tempDbDir } from './testing';
import { TransactionUnfinishedError } from './transaction-unfinished.error';
import { UnitOfWorkFactory } from './unit-of-work.factory';
import { UnitOfWork, withUnitOfWork } from './unit-of-work.runner';
import { WriterReservationTimeoutError } from './writer-reservation';

@Entity('test_notes')
class TestNote {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column('text')
  body!: string;
}

const tmp = tempDbDir('uow');
afterAll(() => tmp.cleanup());
afterEach(() => expect(openConnectionCount()).toBe(0));

async function freshDb(name: string, busyTimeoutMs?: number): Promise<DbOptions> {
  const opts: DbOptions = { databasePath: tmp.file(name), entities: [TestNote], busyTimeoutMs };
  await withUnitOfWork(opts, (uow) => uow.queryRunner.query(`CREATE TABLE test_notes (id INTEGER PRIMARY KEY AUTOINCREMENT, body TEXT NOT NULL)`));
  return opts;
}

async function bodies(opts: DbOptions): Promise<string[]> {
  const notes = await withUnitOfWork(opts, (uow) => uow.manager.find(TestNote, { order: { id: 'ASC' } }));
  return notes.map((note) => note.body);
}

/** Another process's connection holding SQLite's writer slot, outside this process's writer queue. */
async function externalWriter(databasePath: string) {
  const dataSource = createDataSource({ databasePath, entities: [] });
  await dataSource.initialize();
  await dataSource.query('BEGIN IMMEDIATE');
  return {
    query: (sql: string) => dataSource.query(sql),
    commit: () => dataSource.query('COMMIT'),
    close: async () => {
      if (dataSource.isInitialized) await dataSource.destroy();
    },
  };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

describe('withUnitOfWork', () => {
  it('keeps committed writes after the connection is closed', async () => {
    const opts = await freshDb('durable');
    const saved = await withUnitOfWork(opts, async (uow) => {
      const inTransaction = await uow.transaction((manager) => manager.save(TestNote, { body: 'in transaction' }));
      await uow.manager.save(TestNote, { body: 'autocommit' });
      await uow.transaction((manager) => manager.save(TestNote, { body: 'immediate' }), 'immediate');
      return inTransaction;
    });
    expect(saved.id).toBe(1);
    expect(await bodies(opts)).toEqual(['in transaction', 'autocommit', 'immediate']);
  });

  it('fails with activity_transaction_unfinished when fn returns inside a raw BEGIN, and loses its writes', async () => {
    const opts = await freshDb('raw-begin');
    const unit = withUnitOfWork(opts, async (uow) => {
      await uow.queryRunner.query('BEGIN');
      await uow.queryRunner.query(`INSERT INTO test_notes (body) VALUES ('never saved')`);
      expect(openConnectionCount()).toBe(1);
      return 'claimed success';
    });
    const error = await unit.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TransactionUnfinishedError);
    expect(error).toMatchObject({
      name: 'TransactionUnfinishedError',
      code: 'activity_transaction_unfinished',
      databasePath: opts.databasePath,
    });
    expect((error as Error).message).toMatch(/returned with an open transaction.*rolled back/);
    expect(openConnectionCount()).toBe(0);
    expect(await bodies(opts)).toEqual([]);
  });

  it('also catches a TypeORM transaction that was started and never committed', async () => {
    const opts = await freshDb('typeorm-begin');
    await expect(
      withUnitOfWork(opts, async (uow) => {
        await uow.queryRunner.startTransaction();
        await uow.manager.save(TestNote, { body: 'never saved' });
      }),
    ).rejects.toBeInstanceOf(TransactionUnfinishedError);
    expect(await bodies(opts)).toEqual([]);
  });

  it('rolls back and rethrows the original error when fn throws inside a transaction', async () => {
    const opts = await freshDb('throw');
    const original = new Error('stage failed');
    for (const mode of ['deferred', 'immediate'] as const) {
      await expect(
        withUnitOfWork(opts, (uow) =>
          uow.transaction(async (manager) => {
            await manager.save(TestNote, { body: `rolled back (${mode})` });
            throw original;
          }, mode),
        ),
      ).rejects.toBe(original);
      expect(openConnectionCount()).toBe(0);
    }
    expect(await bodies(opts)).toEqual([]);
  });

  it('rolls back a raw transaction left open by fn that throws, rethrowing its error rather than the unfinished one', async () => {
    const opts = await freshDb('throw-raw');
    const original = new Error('boom');
    await expect(
      withUnitOfWork(opts, async (uow) => {
        await uow.queryRunner.query('BEGIN IMMEDIATE');
        await uow.queryRunner.query(`INSERT INTO test_notes (body) VALUES ('lost')`);
        throw original;
      }),
    ).rejects.toBe(original);
    expect(await bodies(opts)).toEqual([]);
  });

  it('closes its connection on success, throw and unfinished-transaction exits', async () => {
    const opts = await freshDb('count');
    expect(openConnectionCount()).toBe(0);
    const seen: number[] = [];
    await withUnitOfWork(opts, async () => {
      seen.push(openConnectionCount());
    });
    expect(openConnectionCount()).toBe(0);
    await expect(
      withUnitOfWork(opts, async () => {
        seen.push(openConnectionCount());
        throw new Error('x');
      }),
    ).rejects.toThrow('x');
    expect(openConnectionCount()).toBe(0);
    await expect(
      withUnitOfWork(opts, async (uow) => {
        seen.push(openConnectionCount());
        await uow.queryRunner.query('BEGIN');
      }),
    ).rejects.toBeInstanceOf(TransactionUnfinishedError);
    expect(openConnectionCount()).toBe(0);
    expect(seen).toEqual([1, 1, 1]);

  });

  it('refuses statements through a unit that has ended', async () => {
    const opts = await freshDb('released');
    const leaked = await withUnitOfWork(opts, async (uow) => uow);
    await expect(leaked.manager.find(TestNote)).rejects.toBeInstanceOf(QueryRunnerAlreadyReleasedError);
  });

  it('applies WAL, the busy timeout and foreign keys to every unit connection', async () => {
    const opts = await freshDb('pragmas', 1234);
    const pragmas = await withUnitOfWork(opts, async (uow) => ({
      journal: await uow.queryRunner.query('PRAGMA journal_mode'),
      busy: await uow.queryRunner.query('PRAGMA busy_timeout'),
      foreignKeys: await uow.queryRunner.query('PRAGMA foreign_keys'),
    }));
    expect(pragmas.journal).toEqual([{ journal_mode: 'wal' }]);
    expect(pragmas.busy).toEqual([{ timeout: 1234 }]);
    expect(pragmas.foreignKeys).toEqual([{ foreign_keys: 1 }]);

    const defaults = await withUnitOfWork({ databasePath: opts.databasePath, entities: [] }, (uow) => uow.queryRunner.query('PRAGMA busy_timeout'));
    expect(defaults).toEqual([{ timeout: 5000 }]);
  });

  it('waits in SQLite’s busy handler for another process’s writer without blocking the event loop', async () => {
    const opts = await freshDb('busy-wait');
    const events: string[] = [];
    let ticks = 0;
    let ticksWhileWaiting = 0;
    let waiterStarted = false;
    const ticker = setInterval(() => {
      ticks += 1;
      if (waiterStarted && !events.includes('holder committed')) ticksWhileWaiting += 1;
    }, 5);
    const holder = await externalWriter(opts.databasePath);
    try {
      events.push('holder reserved');
      const waiter = withUnitOfWork(opts, (uow) =>
        uow.transaction(async (manager) => {
          events.push('waiter reserved');
          return (await manager.save(TestNote, { body: 'waiter' })).id;
        }, 'immediate'),
      );
      waiterStarted = true;
      // The waiter's BEGIN IMMEDIATE is parked in SQLite's busy handler on a libuv thread; the
      // interval still firing proves the event loop is free meanwhile.
      const ticksAtStart = ticks;
      while (ticks < ticksAtStart + 5) await sleep(5);
      expect(events).toEqual(['holder reserved']);
      await holder.query(`INSERT INTO test_notes (body) VALUES ('holder')`);
      await holder.commit();
      events.push('holder committed');
      expect(await waiter).toBe(2);
      events.push('waiter committed');
      expect(events).toEqual(['holder reserved', 'holder committed', 'waiter reserved', 'waiter committed']);
      expect(ticksWhileWaiting).toBeGreaterThan(0);
      expect(await bodies(opts)).toEqual(['holder', 'waiter']);
    } finally {
      clearInterval(ticker);
      await holder.close();
    }
  });

  it('gives up with SQLITE_BUSY when another process holds the writer past the busy timeout', async () => {
    const opts = await freshDb('busy-timeout', 30);
    const holder = await externalWriter(opts.databasePath);
    try {
      // Released only after the waiter gave up: no timing assumption beyond the timeout itself.
      await expect(withUnitOfWork(opts, (uow) => uow.transaction(async () => 'unreachable', 'immediate'))).rejects.toMatchObject({
        code: 'SQLITE_BUSY',
      });
    } finally {
      await holder.close();
    }
  });

  it('queues writers of one process without occupying libuv threads, and times the queue out too', async () => {
    const opts = await freshDb('writer-queue', 2000);
    // More concurrent writers than libuv has threads (4 by default): if each waited inside SQLite's
    // busy handler, the holder could not get a thread to COMMIT and they would all time out.
    await Promise.all(
      Array.from({ length: 16 }, () =>
        withUnitOfWork(opts, (uow) =>
          uow.transaction(async (manager) => {
            const count = await manager.count(TestNote);
            await sleep(1);
            await manager.save(TestNote, { body: `writer ${count}` });
          }, 'immediate'),
        ),
      ),
    );
    // Read-then-write under the reservation never loses an update: every writer saw its predecessors.
    expect(await bodies(opts)).toEqual(Array.from({ length: 16 }, (_, i) => `writer ${i}`));

    const short = { ...opts, busyTimeoutMs: 20 };
    await withUnitOfWork(short, (holder) =>
      holder.transaction(async () => {
        await expect(withUnitOfWork(short, (uow) => uow.transaction(async () => 1, 'immediate'))).rejects.toBeInstanceOf(
          WriterReservationTimeoutError,
        );
      }, 'immediate'),
    );
  });

  it('nests transactions as savepoints and refuses to reserve the writer inside a deferred one', async () => {
    const opts = await freshDb('nested');
    await withUnitOfWork(opts, (uow: UnitOfWork) =>
      uow.transaction(async (manager) => {
        await manager.save(TestNote, { body: 'outer' });
        await expect(
          uow.transaction(async (inner) => {
            await inner.save(TestNote, { body: 'inner, rolled back' });
            throw new Error('inner failed');
          }),
        ).rejects.toThrow('inner failed');
        await uow.transaction((inner) => inner.save(TestNote, { body: 'inner, kept' }));
      }, 'immediate'),
    );
    expect(await bodies(opts)).toEqual(['outer', 'inner, kept']);

    await expect(
      withUnitOfWork(opts, (uow) => uow.transaction(() => uow.transaction(async () => 1, 'immediate'))),
    ).rejects.toThrow(/inside a deferred one/);
  });

  it('works when the unit is destructured (transaction keeps its binding)', async () => {
    const opts = await freshDb('destructured.sqlite');
    await withUnitOfWork(opts, ({ transaction }) => transaction((m) => m.save(TestNote, { body: 'kept' }), 'immediate'));
    expect(await bodies(opts)).toEqual(['kept']);
  });

  it('builds entity metadata once per options object', async () => {
    const opts = await freshDb('metadata');
    const first = await withUnitOfWork(opts, async (uow) => uow.manager.connection);
    const second = await withUnitOfWork(opts, async (uow) => uow.manager.connection);
    expect(second).toBe(first);
    expect(first.hasMetadata(TestNote)).toBe(true);
    // The shared DataSource has no connection of its own; reaching for one says so.
    expect(() => first.createQueryRunner()).toThrow(/no connection of its own/);
  });
});

describe('UnitOfWorkFactory', () => {
  it('runs units against one absolute database path', async () => {
    const opts = await freshDb('factory');
    const factory = new UnitOfWorkFactory({ ...opts, databasePath: opts.databasePath });
    expect(factory.databasePath).toBe(opts.databasePath);
    await factory.run((uow) => uow.manager.save(TestNote, { body: 'via factory' }));
    expect(await factory.run((uow) => uow.manager.count(TestNote))).toBe(1);
    expect(() => new UnitOfWorkFactory({ databasePath: ':memory:', entities: [] })).toThrow(/file path/);
  });
});
