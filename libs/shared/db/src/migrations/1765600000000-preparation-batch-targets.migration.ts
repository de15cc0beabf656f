import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * A preparation batch's frozen selection: the jobs it covers, in order. The batch coordinator pages
 * through it instead of carrying every target in workflow state and continue-as-new input, so a batch
 * of any size keeps bounded payloads and its `selected` count is exactly what it will go through.
 */
export class PreparationBatchTargets1765600000000 implements MigrationInterface {
  name = 'PreparationBatchTargets1765600000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE preparation_batch_targets (
        batch_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        job_key TEXT NOT NULL,
        idempotency_key TEXT NOT NULL,
        PRIMARY KEY (batch_id, seq)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE preparation_batch_targets`);
  }
}
