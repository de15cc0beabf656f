import { DataSource } from 'typeorm';
import { createDataSource } from './data-source.factory';
import { pendingMigrations, runMigrations } from './migration.runner';
import { ALL_MIGRATIONS } from './migrations/migration.registry';
import { openConnectionCount } from './sqlite3.driver';
import { tempDbDir } from './testing';
import { withUnitOfWork } from './unit-of-work.runner';

// Every migration name, in order: these tests are about the runner, not about one migration.
const ALL = ALL_MIGRATIONS.map((m) => new m().name as string);
const sorted = (names: string[]) => [...names].sort();
const tmp = tempDbDir('migrations');
afterAll(() => tmp.cleanup());
afterEach(() => expect(openConnectionCount()).toBe(0));

async function query<T = Record<string, unknown>>(databasePath: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return withUnitOfWork({ databasePath, entities: [] }, (uow) => uow.queryRunner.query(sql, params));
}

describe('runMigrations', () => {
  it('creates the foundation tables once and is idempotent', async () => {
    const databasePath = tmp.file('fresh');
    expect(await pendingMigrations({ databasePath })).toEqual(ALL);

    expect(await runMigrations({ databasePath })).toEqual(ALL);
    expect(await runMigrations({ databasePath })).toEqual([]);
    expect(await pendingMigrations({ databasePath })).toEqual([]);

    const tables = (await query<{ name: string }>(databasePath, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`)).map(
      (row) => row.name,
    );
    expect(tables).toEqual(
      expect.arrayContaining(['discovery_runtime_settings', 'migrations', 'smoke_probes', 'worker_heartbeats', 'workflow_lifecycle_events']),
    );
    const indexes = await query<{ name: string }>(databasePath, `PRAGMA index_list(worker_heartbeats)`);
    expect(indexes.map((index) => index.name)).toContain('idx_worker_heartbeats_database_path_recorded_at');
    const indexColumns = await query<{ name: string }>(databasePath, `PRAGMA index_info(idx_worker_heartbeats_database_path_recorded_at)`);
    expect(indexColumns.map((column) => column.name)).toEqual(['database_path', 'recorded_at']);

    const heartbeatColumns = await query<{ name: string; notnull: number; pk: number }>(databasePath, `PRAGMA table_info(worker_heartbeats)`);
    expect(heartbeatColumns.map((column) => column.name)).toEqual([
      'worker_id', 'task_queue', 'database_path', 'app_dir', 'host', 'pid', 'activity_slots', 'local_control_slots',
      'executor_width', 'schema_version', 'payload', 'started_at', 'recorded_at',
    ]);

    const recorded = await query<{ name: string }>(databasePath, `SELECT name FROM migrations`);
    expect(recorded).toEqual(ALL.map((name) => ({ name })));
  });

  it('seeds exactly one discovery runtime settings row and enforces its checks', async () => {
    const databasePath = tmp.file('settings');
    await runMigrations({ databasePath });
    const rows = await query<{ id: number; max_parallel_families: number; updated_at: number }>(
      databasePath,
      `SELECT * FROM discovery_runtime_settings`,
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 1, max_parallel_families: 1 });
    expect(rows[0].updated_at).toBeGreaterThan(1_700_000_000_000);

    await expect(query(databasePath, `INSERT INTO discovery_runtime_settings (id, updated_at) VALUES (2, 0)`)).rejects.toThrow(/CHECK/);
    await expect(query(databasePath, `UPDATE discovery_runtime_settings SET max_parallel_families = 17`)).rejects.toThrow(/CHECK/);
    await expect(query(databasePath, `UPDATE discovery_runtime_settings SET max_parallel_families = 0`)).rejects.toThrow(/CHECK/);
    await query(databasePath, `UPDATE discovery_runtime_settings SET max_parallel_families = 16`);
  });

  it('keeps lifecycle events unique per idempotency key', async () => {
    const databasePath = tmp.file('lifecycle');
    await runMigrations({ databasePath });
    const insert = `INSERT INTO workflow_lifecycle_events (idempotency_key, tenant, workflow_id, run_id, workflow_type, event_type, payload, recorded_at)
                    VALUES ('k1', 't', 'w', 'r', 'DiscoverWorkflow', 'started', '{}', 1)`;
    await query(databasePath, insert);
    await expect(query(databasePath, insert)).rejects.toThrow(/UNIQUE/);
  });

  it('lets two processes migrate at once: both succeed and the migration is applied once', async () => {
    const databasePath = tmp.file('race');
    const [api, worker] = await Promise.all([runMigrations({ databasePath }), runMigrations({ databasePath })]);
    expect(sorted([...api, ...worker])).toEqual(sorted(ALL));
    expect(await query(databasePath, `SELECT name FROM migrations`)).toEqual(ALL.map((name) => ({ name })));
    expect(await query(databasePath, `SELECT id FROM discovery_runtime_settings`)).toEqual([{ id: 1 }]);
  });

  it('survives the API and the worker opening and migrating a fresh file at the same moment', async () => {
    // Two connections converting a fresh file to WAL at once get SQLITE_BUSY without any busy
    // wait; repeat the race enough times that a missing retry shows up.
    for (let round = 0; round < 60; round++) {
      const databasePath = tmp.file(`fresh-race-${round}`);
      const results = await Promise.all([
        runMigrations({ databasePath }),
        runMigrations({ databasePath }),
        query(databasePath, 'SELECT 1'),
        pendingMigrations({ databasePath }),
      ]);
      expect(sorted([...results[0], ...results[1]])).toEqual(sorted(ALL));
    }
  });

  it('skips a migration the other process applied while this one waited for the writer', async () => {
    const databasePath = tmp.file('race-held');
    await query(databasePath, 'SELECT 1');
    let runs!: Promise<string[][]>;
    // Both runners see the migration pending, then queue behind this writer; the loser must
    // re-read under the reservation and skip instead of failing on CREATE TABLE.
    await withUnitOfWork({ databasePath, entities: [] }, (uow) =>
      uow.transaction(async () => {
        runs = Promise.all([runMigrations({ databasePath, busyTimeoutMs: 20 }), runMigrations({ databasePath, busyTimeoutMs: 20 })]);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }, 'immediate'),
    );
    const [first, second] = await runs;
    expect(sorted([...first, ...second])).toEqual(sorted(ALL));
    expect(await query(databasePath, `SELECT name FROM migrations`)).toEqual(ALL.map((name) => ({ name })));
  });

  it('waits for a database another process keeps busy past the busy timeout, instead of failing', async () => {
    const databasePath = tmp.file('busy');
    const holder = createDataSource({ databasePath, entities: [] });
    await holder.initialize();
    try {
      await holder.query('BEGIN IMMEDIATE');
      let migrationDone = false;
      const migration = runMigrations({ databasePath, busyTimeoutMs: 50 }).then((names) => {
        migrationDone = true;
        return names;
      });
      // Hold the writer for several of the runner's 50 ms busy timeouts: it must keep waiting.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(migrationDone).toBe(false);
      await holder.query('COMMIT');
      expect(await migration).toEqual(ALL);
    } finally {
      await holder.destroy();
    }
  });

  it('writes the bookkeeping TypeORM itself reads', async () => {
    const databasePath = tmp.file('typeorm-compat');
    await runMigrations({ databasePath });
    const dataSource = new DataSource({ ...createDataSource({ databasePath, entities: [] }).options, migrations: ALL_MIGRATIONS });
    await dataSource.initialize();
    try {
      expect(await dataSource.showMigrations()).toBe(false);
      await dataSource.undoLastMigration();
      expect(await pendingMigrations({ databasePath })).toEqual(ALL.slice(-1));
      for (let i = 1; i < ALL.length; i++) await dataSource.undoLastMigration();
      expect(await pendingMigrations({ databasePath })).toEqual(ALL);
    } finally {
      await dataSource.destroy();
    }
    const tables = await query<{ name: string }>(databasePath, `SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'worker_heartbeats'`);
    expect(tables).toEqual([]);
    expect(await runMigrations({ databasePath })).toEqual(ALL);
  });
});
