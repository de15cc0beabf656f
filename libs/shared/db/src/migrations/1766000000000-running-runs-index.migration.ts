import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The discovery runs still running, as a partial index: the operations ETA counts their unfinished
 * families on every snapshot, and without it that read walks every run ever recorded.
 */
export class RunningRunsIndex1766000000000 implements MigrationInterface {
  name = 'RunningRunsIndex1766000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX discovery_runs_running ON discovery_runs (run_id) WHERE state = 'running'`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX discovery_runs_running`);
  }
}
