import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A discovery run's progress detail (jobs committed, enriched, scored; stream units), kept as the
 * highest counts ever shown so the detail under the Runs bar never moves backwards.
 */
export class RunProgressDetail1765500000000 implements MigrationInterface {
  name = 'RunProgressDetail1765500000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE discovery_runs ADD COLUMN progress_detail TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE discovery_runs DROP COLUMN progress_detail`);
  }
}
