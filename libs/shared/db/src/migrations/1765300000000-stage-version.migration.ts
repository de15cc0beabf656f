import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * jobs.stage_version: bumped by every preparation write (score, tailored resume, cover draft, cover
 * decision). An activity attempt reads it with the stage when it starts and its write applies only
 * if both are unchanged, so an attempt that timed out and finishes late cannot undo a newer one —
 * even when the job has since come back to the same stage (a re-score that went round again).
 */
export class StageVersion1765300000000 implements MigrationInterface {
  name = 'StageVersion1765300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN stage_version INTEGER NOT NULL DEFAULT 0`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs DROP COLUMN stage_version`);
  }
}
