import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Jobs and discovery runs.
 * - jobs: one row per real job (job_key from canonical URL or company+title+location); every stage
 *   reads and advances it. `stage` is where the pipeline stands; enrichment_* is the detail capture.
 * - job_sources: every (source, external id) that observed the job; re-observing updates, never duplicates.
 * - discovery_runs / discovery_run_jobs: a run's frozen plan, progress, failed families, and its
 *   durable current-execution membership (what the live enrichment consumer polls).
 * - discovery_family_results: one outcome per family per run (retries overwrite, never add).
 * - stream_units: finished JobStreaming units per run, so a restarted run does not redo them.
 */
export class Jobs1764700000000 implements MigrationInterface {
  name = 'Jobs1764700000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE jobs (
        job_key TEXT PRIMARY KEY,
        idempotency_key TEXT NOT NULL UNIQUE,
        content_key TEXT,
        title TEXT NOT NULL,
        company TEXT NOT NULL,
        location TEXT,
        remote INTEGER,
        url TEXT NOT NULL,
        canonical_url TEXT,
        apply_url TEXT,
        description_html TEXT,
        description_text TEXT,
        posted_at TEXT,
        salary_text TEXT,
        employment_type TEXT,
        tags TEXT NOT NULL DEFAULT '[]',
        stage TEXT NOT NULL,
        enrichment_status TEXT NOT NULL DEFAULT 'pending',
        enrichment_method TEXT,
        enrichment_error TEXT,
        enrichment_attempts INTEGER NOT NULL DEFAULT 0,
        score INTEGER,
        score_detail TEXT,
        scored_at INTEGER,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      )`);
    await q.query(`CREATE INDEX jobs_content_key ON jobs (content_key)`);
    await q.query(`CREATE INDEX jobs_stage ON jobs (stage)`);
    await q.query(`
      CREATE TABLE job_sources (
        source_id TEXT NOT NULL,
        external_id TEXT NOT NULL,
        job_key TEXT NOT NULL REFERENCES jobs (job_key) ON DELETE CASCADE,
        source_kind TEXT NOT NULL,
        url TEXT NOT NULL,
        first_seen_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        PRIMARY KEY (source_id, external_id)
      )`);
    await q.query(`CREATE INDEX job_sources_job ON job_sources (job_key)`);
    await q.query(`
      CREATE TABLE discovery_runs (
        run_id TEXT PRIMARY KEY,
        state TEXT NOT NULL,
        plan TEXT NOT NULL,
        progress_completed INTEGER NOT NULL DEFAULT 0,
        progress_total INTEGER NOT NULL DEFAULT 0,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        finished_at INTEGER
      )`);
    await q.query(`
      CREATE TABLE discovery_run_jobs (
        run_id TEXT NOT NULL,
        job_key TEXT NOT NULL,
        family TEXT NOT NULL,
        seen_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, job_key)
      )`);
    await q.query(`
      CREATE TABLE discovery_family_results (
        run_id TEXT NOT NULL,
        family TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
        jobs INTEGER NOT NULL,
        error TEXT,
        finished_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, family)
      )`);
    await q.query(`
      CREATE TABLE stream_units (
        run_id TEXT NOT NULL,
        source_id TEXT NOT NULL,
        unit_key TEXT NOT NULL,
        jobs INTEGER NOT NULL,
        finished_at INTEGER NOT NULL,
        PRIMARY KEY (run_id, source_id, unit_key)
      )`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const t of ['stream_units', 'discovery_family_results', 'discovery_run_jobs', 'discovery_runs', 'job_sources', 'jobs']) {
      await q.query(`DROP TABLE ${t}`);
    }
  }
}
