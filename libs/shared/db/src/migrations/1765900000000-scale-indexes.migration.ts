import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Indexes that keep the pipeline's repeated reads proportional to the work they find, not to the
 * jobs already stored (issue #14, linear cost). Partial indexes hold only the rows a reader looks
 * for, so they stay small however many jobs are done:
 * - jobs_enrichment_seen: jobs by enrichment status in the order first seen. The live enrichment
 *   consumer walks the pending ones (and the robots-blocked ones it re-admits) in that order, probing
 *   its run's membership by primary key, and stops at its limit, instead of joining and sorting every
 *   member of its run on every poll.
 * - jobs_score_revision: the profile revision a job was scored against, so the idle recovery and a
 *   profile update find jobs scored against an older profile without reading every job.
 * - jobs_prep_status: jobs paused at the spend ceiling (a raised ceiling wakes them).
 */
export class ScaleIndexes1765900000000 implements MigrationInterface {
  name = 'ScaleIndexes1765900000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE INDEX jobs_enrichment_seen ON jobs (enrichment_status, first_seen_at, job_key)`);
    await q.query(`CREATE INDEX jobs_score_revision ON jobs (score_profile_revision)`);
    await q.query(`CREATE INDEX jobs_prep_status ON jobs (prep_status) WHERE prep_status IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    for (const index of ['jobs_prep_status', 'jobs_score_revision', 'jobs_enrichment_seen']) await q.query(`DROP INDEX ${index}`);
  }
}
