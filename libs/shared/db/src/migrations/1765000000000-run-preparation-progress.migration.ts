import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A run's preparation batch progress (jobs selected / finished / failed), shown by the Runs API. */
export class RunPreparationProgress1765000000000 implements MigrationInterface {
  name = 'RunPreparationProgress1765000000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pipeline_runs ADD COLUMN preparation_progress TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pipeline_runs DROP COLUMN preparation_progress`);
  }
}
