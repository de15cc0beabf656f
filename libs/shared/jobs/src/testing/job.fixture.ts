import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '../job.repository';
import { PreparationRepository } from '../preparation.repository';

/** Test support: a migrated app database at `databasePath` with the job store over it. */
export async function openJobStore(databasePath: string): Promise<{ uow: UnitOfWorkFactory; jobs: JobRepository; prep: PreparationRepository }> {
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  return { uow, jobs: new JobRepository(uow), prep: new PreparationRepository(uow) };
}

/**
 * Test support: one job observed by a source and enriched, so it stands at pending_score — the
 * starting point of every preparation spec (scoring, tailoring, cover letter, the job store).
 */
export async function seedEnrichedJob(jobs: JobRepository, job: { jobKey: string; title: string; company: string; description: string }): Promise<void> {
  await jobs.recordObservations('r1', 'greenhouse', [
    {
      jobKey: job.jobKey, idempotencyKey: `v1-${job.jobKey}`, contentKey: `c-${job.jobKey}`, canonicalUrl: null, sourceId: 's1', sourceKind: 'greenhouse',
      externalId: job.jobKey, title: job.title, company: job.company, location: null, remote: true, url: `https://jobs.test/${job.jobKey}`, applyUrl: null,
      descriptionHtml: null, descriptionText: job.description, postedAt: null, salaryText: null, employmentType: null, tags: [],
    },
  ]);
  await jobs.recordEnrichment(job.jobKey, { status: 'enriched', descriptionText: job.description });
}
