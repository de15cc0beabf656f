import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Applying (issue #12).
 *
 * - job_answers: the answers a person saved for a job's form questions (`{[questionKey]: string}`).
 * - job_approvals: what the person approved — the sha256 of the tailored resume, the cover letter and
 *   the saved answers as they were. An approval is only honoured while all three still match the
 *   current artifacts (ApplicationRepository.approvalOf), so any later change voids it without a
 *   write here.
 * - applications: one row per tenant and job, the canonical state of its apply. `owner_run_id` is the
 *   run of the latest ApplyClaimAcquired: every write of an attempt compares against it under the
 *   writer, so a stale attempt's result cannot land. `submit_intent` is the checkpoint written before
 *   the final click (`pending`) and confirmed with the outcome; once it is not `none` no new claim is
 *   accepted for the job. Not cascaded from jobs: a record of a real submission must outlive its job.
 * - apply_claim_events: the canonical, append-only record of who claimed and started which run.
 */
export class Applications1766300000000 implements MigrationInterface {
  name = 'Applications1766300000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE job_answers (
        job_key TEXT PRIMARY KEY REFERENCES jobs (job_key) ON DELETE CASCADE,
        answers_json TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
    await q.query(`
      CREATE TABLE job_approvals (
        job_key TEXT PRIMARY KEY REFERENCES jobs (job_key) ON DELETE CASCADE,
        approved_at INTEGER NOT NULL,
        resume_sha256 TEXT NOT NULL,
        cover_letter_sha256 TEXT NOT NULL,
        answers_sha256 TEXT NOT NULL
      )`);
    await q.query(`
      CREATE TABLE applications (
        tenant TEXT NOT NULL,
        job_key TEXT NOT NULL REFERENCES jobs (job_key),
        workflow_id TEXT NOT NULL,
        owner_run_id TEXT NOT NULL,
        state TEXT NOT NULL CHECK (state IN ('running', 'needs_user_input', 'submitted', 'needs_verification', 'failed', 'dry_run_done')),
        dry_run INTEGER NOT NULL CHECK (dry_run IN (0, 1)),
        submit_intent TEXT NOT NULL DEFAULT 'none' CHECK (submit_intent IN ('none', 'pending', 'confirmed')),
        intent_at INTEGER,
        submitted_at INTEGER,
        confirmation TEXT,
        questions_json TEXT NOT NULL DEFAULT '[]',
        screenshots_json TEXT NOT NULL DEFAULT '[]',
        reason TEXT,
        started_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (tenant, job_key)
      )`);
    // submissionsToday counts intents of the local day: a range on intent_at.
    await q.query(`CREATE INDEX applications_intent_at ON applications (intent_at) WHERE intent_at IS NOT NULL`);
    await q.query(`
      CREATE TABLE apply_claim_events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        tenant TEXT NOT NULL,
        job_key TEXT NOT NULL,
        run_id TEXT NOT NULL,
        event TEXT NOT NULL CHECK (event IN ('ApplyClaimAcquired', 'ApplyRunStarted', 'ApplySubmitIntentRecorded', 'ApplyOutcomeRecorded', 'ApplySettled')),
        detail TEXT,
        at INTEGER NOT NULL
      )`);
    await q.query(`CREATE INDEX apply_claim_events_job ON apply_claim_events (tenant, job_key, id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE apply_claim_events`);
    await q.query(`DROP TABLE applications`);
    await q.query(`DROP TABLE job_approvals`);
    await q.query(`DROP TABLE job_answers`);
  }
}
