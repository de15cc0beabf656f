import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The Runs API's registry: every run a user started, with its stages and workflow id. */
export class PipelineRuns1764800000000 implements MigrationInterface {
  name = 'PipelineRuns1764800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE pipeline_runs (
        run_id TEXT PRIMARY KEY,
        workflow_id TEXT NOT NULL UNIQUE,
        stages TEXT NOT NULL,
        source_ids TEXT,
        created_at INTEGER NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE pipeline_runs`);
  }
}
