import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Saved posting checks (issue #11, spec "Saved Posting Check Bounds").
 *
 * - job_availability: the last ACCEPTED verdict per job. `version` grows with every accepted
 *   verdict: a check snapshots it when it claims the job and its result is only accepted while it
 *   is unchanged (supersession). `checked_url` is the canonical URL the verdict is about.
 *   `uncertain_streak` counts consecutive unknown/blocked verdicts: the evidence backoff.
 * - posting_check_leases: per-job five-minute ownership (no workspace-wide lease). The snapshot
 *   columns are what the owner read at claim time; completion is accepted only while the job still
 *   has that canonical URL, stage version and availability version.
 * - posting_check_budget: the workspace's acquisition budget (one row, AcquisitionBudget's
 *   persisted state), read and written under the writer reservation so two workers cannot both
 *   spend the last acquisition.
 */
export class PostingAvailability1766200000000 implements MigrationInterface {
  name = 'PostingAvailability1766200000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_availability (
        job_key TEXT PRIMARY KEY REFERENCES jobs (job_key) ON DELETE CASCADE,
        state TEXT NOT NULL CHECK (state IN ('open', 'closed', 'unknown', 'blocked')),
        reason TEXT,
        method TEXT NOT NULL CHECK (method IN ('api', 'http', 'browser')),
        evidence_json TEXT NOT NULL,
        checked_at INTEGER NOT NULL,
        checked_url TEXT NOT NULL,
        uncertain_streak INTEGER NOT NULL DEFAULT 0,
        version INTEGER NOT NULL
      )`);
    await q.query(`CREATE INDEX job_availability_state ON job_availability (state)`);
    await q.query(`
      CREATE TABLE posting_check_leases (
        job_key TEXT PRIMARY KEY REFERENCES jobs (job_key) ON DELETE CASCADE,
        owner TEXT NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('sweep', 'foreground')),
        acquired_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        snapshot_url TEXT NOT NULL,
        snapshot_stage_version INTEGER NOT NULL,
        snapshot_availability_version INTEGER NOT NULL
      )`);
    await q.query(`
      CREATE TABLE posting_check_budget (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        state_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE posting_check_budget`);
    await q.query(`DROP TABLE posting_check_leases`);
    await q.query(`DROP TABLE job_availability`);
  }
}
