import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The tables the worker and the API need before any domain lib adds its own: worker heartbeats
 * (capacity and readiness), the Discovery Runtime settings row, workflow lifecycle events and the
 * smoke probe. Timestamps are epoch milliseconds in INTEGER columns so that comparisons and
 * freshness windows are plain integer arithmetic in SQL.
 */
export class Foundation1764400000000 implements MigrationInterface {
  name = 'Foundation1764400000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE worker_heartbeats (
        worker_id TEXT PRIMARY KEY,
        task_queue TEXT NOT NULL,
        database_path TEXT NOT NULL,
        app_dir TEXT NOT NULL,
        host TEXT NOT NULL,
        pid INTEGER NOT NULL,
        activity_slots INTEGER NOT NULL,
        local_control_slots INTEGER NOT NULL,
        executor_width INTEGER NOT NULL,
        schema_version INTEGER NOT NULL,
        payload TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        recorded_at INTEGER NOT NULL
      )`);
    // The operations read model filters heartbeats by database identity and keeps the fresh ones.
    await queryRunner.query(
      `CREATE INDEX idx_worker_heartbeats_database_path_recorded_at ON worker_heartbeats (database_path, recorded_at)`,
    );

    // A single-row table: the CHECK on id makes a second settings row impossible rather than ignored.
    await queryRunner.query(`
      CREATE TABLE discovery_runtime_settings (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        max_parallel_families INTEGER NOT NULL DEFAULT 1 CHECK (max_parallel_families BETWEEN 1 AND 16),
        updated_at INTEGER NOT NULL
      )`);
    await queryRunner.query(
      `INSERT INTO discovery_runtime_settings (id, max_parallel_families, updated_at) VALUES (1, 1, ?)`,
      [Date.now()],
    );

    // idempotency_key is UNIQUE so a retried lifecycle activity whose first attempt committed
    // cannot record the same event twice.
    await queryRunner.query(`
      CREATE TABLE workflow_lifecycle_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        idempotency_key TEXT NOT NULL UNIQUE,
        tenant TEXT NOT NULL,
        workflow_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        workflow_type TEXT NOT NULL,
        event_type TEXT NOT NULL,
        payload TEXT NOT NULL,
        recorded_at INTEGER NOT NULL
      )`);

    await queryRunner.query(`
      CREATE TABLE smoke_probes (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        workflow_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        activity_id TEXT NOT NULL,
        attempt INTEGER NOT NULL,
        observed_active INTEGER NOT NULL,
        started_at INTEGER NOT NULL,
        finished_at INTEGER
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE smoke_probes`);
    await queryRunner.query(`DROP TABLE workflow_lifecycle_events`);
    await queryRunner.query(`DROP TABLE discovery_runtime_settings`);
    await queryRunner.query(`DROP INDEX idx_worker_heartbeats_database_path_recorded_at`);
    await queryRunner.query(`DROP TABLE worker_heartbeats`);
  }
}
