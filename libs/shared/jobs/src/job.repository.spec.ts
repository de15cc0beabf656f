import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRunRepository } from './discovery-run.repository';
import type { ObservedPosting } from './job.model';
import { JobRepository } from './job.repository';

let dir: string;
let jobs: JobRepository;
let runs: DiscoveryRunRepository;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-jobs-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  jobs = new JobRepository(uow);
  runs = new DiscoveryRunRepository(uow);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function posting(o: Partial<ObservedPosting> = {}): ObservedPosting {
  return {
    jobKey: 'j_a',
    idempotencyKey: 'v1-j_a',
    contentKey: 'c_a',
    canonicalUrl: 'https://x.test/jobs/1',
    sourceId: 'src-1',
    sourceKind: 'greenhouse',
    externalId: '1',
    title: 'Engineer',
    company: 'Acme',
    location: 'Berlin',
    remote: false,
    url: 'https://x.test/jobs/1',
    applyUrl: null,
    descriptionHtml: null,
    descriptionText: null,
    postedAt: null,
    salaryText: null,
    employmentType: null,
    tags: ['ts'],
    ...o,
  };
}

describe('JobRepository', () => {
  it('re-observing a job updates it instead of duplicating it, and fills missing fields', async () => {
    expect(await jobs.recordObservations('r1', 'greenhouse', [posting()])).toEqual({ inserted: 1, seen: 1 });
    expect(await jobs.recordObservations('r1', 'greenhouse', [posting({ salaryText: '€80k' })])).toEqual({ inserted: 0, seen: 1 });
    const { items, total } = await jobs.list({ limit: 10, offset: 0 });
    expect(total).toBe(1);
    expect(items[0]).toMatchObject({ jobKey: 'j_a', stage: 'pending_enrichment', salaryText: '€80k', sources: [{ sourceId: 'src-1', externalId: '1' }] });
  });

  it('the same posting through another source is one job with two sources; a content match (repost) joins it too', async () => {
    await jobs.recordObservations('r1', 'greenhouse', [posting()]);
    await jobs.recordObservations('r1', 'mirror', [posting({ sourceId: 'src-2' })]);
    await jobs.recordObservations('r1', 'lever', [posting({ jobKey: 'j_b', idempotencyKey: 'v1-j_b', sourceId: 'src-3', externalId: '9', url: 'https://x.test/jobs/9' })]);
    const { items, total } = await jobs.list({ limit: 10, offset: 0 });
    expect(total).toBe(1);
    expect(items[0].sources.map((s) => s.sourceId).sort()).toEqual(['src-1', 'src-2', 'src-3']);
  });

  it('keeps different jobs apart (different content key)', async () => {
    await jobs.recordObservations('r1', 'g', [posting(), posting({ jobKey: 'j_b', idempotencyKey: 'v1-j_b', contentKey: 'c_b', externalId: '2', url: 'https://x.test/jobs/2' })]);
    expect((await jobs.list({ limit: 10, offset: 0 })).total).toBe(2);
  });

  it('moves a job to pending_score on enrichment (or robots block) and keeps a retryable failure pending', async () => {
    await jobs.recordObservations('r1', 'g', [posting(), posting({ jobKey: 'j_b', idempotencyKey: 'v1-j_b', contentKey: 'c_b', externalId: '2' })]);
    expect(await jobs.recordEnrichment('j_a', { status: 'failed_retryable', error: '503' })).toBeNull();
    expect((await jobs.get('j_a'))?.stage).toBe('pending_enrichment');
    expect(await jobs.recordEnrichment('j_a', { status: 'enriched', method: 'json_ld', descriptionText: 'Build things' })).toBe('v1-j_a');
    expect(await jobs.recordEnrichment('j_b', { status: 'robots_blocked', error: 'disallowed' })).toBe('v1-j_b');
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_score', enrichmentStatus: 'enriched', descriptionText: 'Build things' });
    expect((await jobs.selectPendingPreparation({ runId: 'r1', includePendingTailor: false })).map((j) => j.jobKey).sort()).toEqual(['j_a', 'j_b']);
    await jobs.recordScore('j_a', 70, { rationale: 'x' });
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'scored', score: 70 });
    expect((await jobs.list({ stage: 'scored', limit: 10, offset: 0 })).total).toBe(1);
  });

  it('selects a run member for enrichment; recoverable rows only when asked', async () => {
    await jobs.recordObservations('r1', 'g', [posting()]);
    await jobs.recordObservations('r2', 'g', [posting({ jobKey: 'j_b', idempotencyKey: 'v1-j_b', contentKey: 'c_b', externalId: '2' })]);
    await jobs.recordEnrichment('j_a', { status: 'failed_retryable' });
    expect(await jobs.selectForEnrichment('r1', { includeRecoverable: false, exclude: new Set(), limit: 10 })).toEqual([]);
    expect((await jobs.selectForEnrichment('r1', { includeRecoverable: true, exclude: new Set(), limit: 10 })).map((j) => j.jobKey)).toEqual(['j_a']);
    expect(await jobs.selectForEnrichment('r1', { includeRecoverable: true, exclude: new Set(['j_a']), limit: 10 })).toEqual([]);
  });
});

describe('DiscoveryRunRepository', () => {
  it('keeps the first frozen plan, moves progress only forward and records one outcome per family', async () => {
    expect(await runs.create('r1', { families: ['a'] }, 3)).toEqual({ families: ['a'] });
    expect(await runs.create('r1', { families: ['changed'] }, 9)).toEqual({ families: ['a'] });
    await runs.advance('r1', 2);
    await runs.advance('r1', 1);
    await runs.recordFamily('r1', 'a', 'failed', 0, 'boom');
    await runs.recordFamily('r1', 'a', 'completed', 5, null);
    expect(await runs.get('r1')).toMatchObject({ progress: { completed: 2, total: 3 }, familiesFailed: [], familiesCompleted: ['a'] });
    await runs.finish('r1', 'completed');
    await runs.finish('r1', 'failed');
    expect(await runs.get('r1')).toMatchObject({ state: 'completed', progress: { completed: 3, total: 3 } });
  });

  it('remembers finished stream units per run and source', async () => {
    await runs.markUnitFinished('r1', 's1', 'remotive:q=go&l=', 4);
    await runs.markUnitFinished('r1', 's1', 'remotive:q=go&l=', 4);
    expect([...(await runs.finishedUnits('r1', 's1'))]).toEqual(['remotive:q=go&l=']);
    expect((await runs.finishedUnits('r2', 's1')).size).toBe(0);
  });
});
