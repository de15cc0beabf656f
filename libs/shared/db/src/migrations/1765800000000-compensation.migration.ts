import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Compensation (issue #10): determinations cached by the exact source identity of the statement they
 * read (source, external job id, field path, sha256 of the raw text) and the determination version,
 * so a refresh reuses an accepted id instead of paying for a new call; the refresh runs with their
 * counts; per-job refresh leases (owner + expiry) that guard publication; each job's published
 * compensation — its summary columns for filtering and sorting, and every row it was chosen from;
 * and, per source posting, the statements its adapter collected.
 */
export class Compensation1765800000000 implements MigrationInterface {
  name = 'Compensation1765800000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE compensation_determinations (
        id TEXT PRIMARY KEY,
        identity_key TEXT NOT NULL,
        version TEXT NOT NULL,
        source_id TEXT NOT NULL,
        external_job_id TEXT NOT NULL,
        field_path TEXT NOT NULL,
        text_sha256 TEXT NOT NULL,
        method TEXT NOT NULL,
        result_json TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        UNIQUE (identity_key, version)
      )`);
    await q.query(`
      CREATE TABLE compensation_refreshes (
        id TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        state TEXT NOT NULL,
        slots INTEGER NOT NULL,
        jobs INTEGER NOT NULL DEFAULT 0,
        admitted INTEGER NOT NULL DEFAULT 0,
        completed INTEGER NOT NULL DEFAULT 0,
        cached INTEGER NOT NULL DEFAULT 0,
        failed INTEGER NOT NULL DEFAULT 0,
        published INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        created_at INTEGER NOT NULL,
        finished_at INTEGER
      )`);
    await q.query(`
      CREATE TABLE compensation_leases (
        job_key TEXT PRIMARY KEY,
        refresh_id TEXT NOT NULL,
        owner TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      )`);
    await q.query(`CREATE INDEX compensation_leases_owner ON compensation_leases (owner)`);
    await q.query(`
      CREATE TABLE job_compensation (
        job_key TEXT PRIMARY KEY,
        refresh_id TEXT NOT NULL,
        kind TEXT,
        currency TEXT,
        interval TEXT,
        min REAL,
        max REAL,
        min_yearly REAL,
        max_yearly REAL,
        confidence REAL,
        method TEXT,
        summary_json TEXT,
        rows_json TEXT NOT NULL,
        published_at INTEGER NOT NULL
      )`);
    // GET /v1/jobs?minSalary=&currency= filters on the annualised figures; sort=salary orders by max.
    await q.query(`CREATE INDEX job_compensation_currency_max ON job_compensation (currency, max_yearly)`);
    // The compensation statements a source gave for its posting (field path, raw text, structured
    // value), as its adapter read them: the refresh's provider rows, with the posting's identity.
    await q.query(`ALTER TABLE job_sources ADD COLUMN compensation_json TEXT`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE job_sources DROP COLUMN compensation_json`);
    await q.query(`DROP TABLE job_compensation`);
    await q.query(`DROP TABLE compensation_leases`);
    await q.query(`DROP TABLE compensation_refreshes`);
    await q.query(`DROP TABLE compensation_determinations`);
  }
}
