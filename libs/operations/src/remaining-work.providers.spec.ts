import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { DiscoveryRunRepository, JobRepository, PreparationRepository, RemainingWorkRepository, type ObservedPosting } from '@jobctrl/shared/jobs';
import { discoveryRemainingWork, preparationRemainingWork } from './remaining-work.providers';
import { RemainingWorkRegistry } from './remaining-work.registry';

/** A minimal distinct posting; only identity matters for counting. */
function posting(n: number): ObservedPosting {
  const url = `https://x.test/jobs/${n}`;
  return { jobKey: `j_${n}`, idempotencyKey: `v1-j_${n}`, contentKey: `c_${n}`, canonicalUrl: url, sourceId: 'src-1', sourceKind: 'greenhouse', externalId: String(n), url,
    title: `Role ${n}`, company: 'Acme', location: null, remote: null, applyUrl: null, descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [] };
}

const dbs = tempDbDir('remaining-work');
afterAll(() => dbs.cleanup());

describe('remaining-work providers over a real SQLite file', () => {
  let uow: UnitOfWorkFactory;
  let repo: RemainingWorkRepository;
  beforeEach(async () => {
    const databasePath = dbs.file('ops');
    await runMigrations({ databasePath });
    uow = new UnitOfWorkFactory({ databasePath, entities: [] });
    repo = new RemainingWorkRepository(uow);
  });

  it('report zero on an empty database (an idle pipeline, not an unknown one)', async () => {
    const registry = new RemainingWorkRegistry();
    registry.register(discoveryRemainingWork(repo));
    registry.register(preparationRemainingWork(repo));
    expect(await registry.remaining()).toEqual({ total: 0, byStage: { discovery: 0, preparation: 0 } });
  });

  it('preparation counts the activities ahead of each pending job; finished jobs count nothing', async () => {
    const jobs = new JobRepository(uow);
    const prep = new PreparationRepository(uow);
    await jobs.recordObservations('r1', 'greenhouse', [1, 2, 3, 4, 5, 6].map(posting));
    // j_1 and j_6 wait for enrichment, j_2 for its score, j_3 for tailoring, j_4 for its cover
    // letter; j_5 scored below the threshold and is done.
    for (const n of [2, 3, 4, 5]) await jobs.recordEnrichment(`j_${n}`, { status: 'enriched', descriptionText: 'text' });
    await prep.recordScore('j_3', { score: 80, detail: {}, profileRevision: 1, threshold: 60 });
    await prep.recordScore('j_4', { score: 80, detail: {}, profileRevision: 1, threshold: 60 });
    await prep.recordTailored('j_4', { summary: 's' });
    await prep.recordScore('j_5', { score: 10, detail: {}, profileRevision: 1, threshold: 60 });

    expect(await repo.jobsByPendingStage()).toEqual({ pending_enrichment: 2, pending_score: 1, pending_tailor: 1, pending_cover: 1 });
    // 2 × 1 (their scores) + 1 (score) + 3 (tailor, draft, review) + 2 (draft, review)
    expect(await preparationRemainingWork(repo).remaining()).toBe(8);
  });

  it('discovery counts the planned families of running runs that have no outcome yet', async () => {
    const runs = new DiscoveryRunRepository(uow);
    const plan = (runId: string, families: string[]) => ({ runId, families: families.map((family) => ({ family, sourceIds: [] })), maxParallelFamilies: 1, internalConcurrency: 2 });
    await runs.create('r1', plan('r1', ['ashby', 'greenhouse', 'lever']), 4);
    await runs.recordFamily('r1', 'ashby', 'completed', 3, null);
    await runs.recordFamily('r1', 'greenhouse', 'failed', 0, 'boom');
    await runs.create('r2', plan('r2', ['lever', 'workable']), 3);
    await runs.create('done', plan('done', ['lever']), 2);
    await runs.finish('done', 'completed');

    expect(await discoveryRemainingWork(repo).remaining()).toBe(1 + 2);
    await runs.finish('r2', 'cancelled');
    expect(await discoveryRemainingWork(repo).remaining()).toBe(1);
  });
});
