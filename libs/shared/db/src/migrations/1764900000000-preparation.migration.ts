import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Preparation: the profile, the LLM spend ledger and each job's preparation artifacts.
 * - profile: one row (id 1); `revision` increases with every PUT so jobs can tell a stale score.
 * - llm_spend: one row per model call attempt that consumed tokens, charged to a lane and a local day.
 * - llm_spend_reservations: admitted calls still in flight, so concurrent admissions cannot all pass
 *   the ceiling at once (expired rows are ignored: a crashed worker cannot block spend forever).
 * - jobs: the tailored resume, the cover letter with its review pair, and the preparation state
 *   (`prep_status` spend_ceiling_reached while a job waits for budget).
 * - pipeline_runs.blocked_reason: a run paused by the spend ceiling shows it.
 */
export class Preparation1764900000000 implements MigrationInterface {
  name = 'Preparation1764900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE profile (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        document TEXT NOT NULL,
        revision INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
    await q.query(`
      CREATE TABLE llm_spend (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        day TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        lane TEXT NOT NULL,
        provider TEXT NOT NULL,
        model TEXT NOT NULL,
        effort TEXT NOT NULL,
        input_tokens INTEGER NOT NULL,
        output_tokens INTEGER NOT NULL,
        cost_usd REAL NOT NULL,
        outcome TEXT NOT NULL,
        job_key TEXT
      )`);
    await q.query(`CREATE INDEX llm_spend_day ON llm_spend (day, lane)`);
    await q.query(`
      CREATE TABLE llm_spend_reservations (
        id TEXT PRIMARY KEY,
        day TEXT NOT NULL,
        estimate_usd REAL NOT NULL,
        expires_at INTEGER NOT NULL
      )`);
    for (const column of [
      'score_profile_revision INTEGER',
      'tailored_resume TEXT',
      'tailored_at INTEGER',
      'cover_letter TEXT',
      'cover_review TEXT',
      'cover_attempts INTEGER NOT NULL DEFAULT 0',
      'prepared_at INTEGER',
      'prep_status TEXT',
    ]) {
      await q.query(`ALTER TABLE jobs ADD COLUMN ${column}`);
    }
    await q.query(`ALTER TABLE pipeline_runs ADD COLUMN blocked_reason TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE pipeline_runs DROP COLUMN blocked_reason`);
    for (const column of ['prep_status', 'prepared_at', 'cover_attempts', 'cover_review', 'cover_letter', 'tailored_at', 'tailored_resume', 'score_profile_revision']) {
      await q.query(`ALTER TABLE jobs DROP COLUMN ${column}`);
    }
    await q.query(`DROP TABLE llm_spend_reservations`);
    await q.query(`DROP TABLE llm_spend`);
    await q.query(`DROP TABLE profile`);
  }
}
