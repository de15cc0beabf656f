import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Projections refreshed from the canonical workflow_lifecycle_events: one row per workflow run, and a
 * cursor per projection so a refresh resumes after the last event it folded. A failed refresh rolls
 * back to the old cursor; the committed events stay for the next refresh.
 */
export class LifecycleProjections1764500000000 implements MigrationInterface {
  name = 'LifecycleProjections1764500000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE workflow_run_projections (
        workflow_id TEXT NOT NULL,
        run_id TEXT NOT NULL,
        tenant TEXT NOT NULL,
        workflow_type TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled')),
        started_at INTEGER,
        finished_at INTEGER,
        outcome TEXT,
        last_event_id INTEGER NOT NULL,
        PRIMARY KEY (workflow_id, run_id)
      )`);
    await queryRunner.query(`
      CREATE TABLE projection_cursors (
        name TEXT PRIMARY KEY,
        last_event_id INTEGER NOT NULL
      )`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE projection_cursors`);
    await queryRunner.query(`DROP TABLE workflow_run_projections`);
  }
}
