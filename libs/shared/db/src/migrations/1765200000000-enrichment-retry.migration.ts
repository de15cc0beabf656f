import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * When a job's retryable enrichment failure is tried again (null: nothing scheduled). Jobs already
 * stranded in pending_enrichment with a retryable failure become due at once, so the retry pass
 * moves them on instead of leaving them where nothing would ever pick them up.
 */
export class EnrichmentRetry1765200000000 implements MigrationInterface {
  name = 'EnrichmentRetry1765200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE jobs ADD COLUMN enrichment_next_attempt_at INTEGER`);
    await q.query(`UPDATE jobs SET enrichment_next_attempt_at = updated_at WHERE stage = 'pending_enrichment' AND enrichment_status = 'failed_retryable'`);
    // The retry pass looks for due retries across every run.
    await q.query(`CREATE INDEX jobs_enrichment_due ON jobs (enrichment_status, enrichment_next_attempt_at)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX jobs_enrichment_due`);
    await q.query(`ALTER TABLE jobs DROP COLUMN enrichment_next_attempt_at`);
  }
}
