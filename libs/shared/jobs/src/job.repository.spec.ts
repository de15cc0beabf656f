import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runMigrations, UnitOfWorkFactory, type UnitOfWork } from '@jobctrl/shared/db';
import { DiscoveryRunRepository } from './discovery-run.repository';
import type { ObservedPosting } from './job.model';
import { ENRICHMENT_CLAIM_LEASE_MS, JobRepository } from './job.repository';
import { PreparationRepository } from './preparation.repository';

let dir: string;
let jobs: JobRepository;
let runs: DiscoveryRunRepository;
let prep: PreparationRepository;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-jobs-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  jobs = new JobRepository(uow);
  prep = new PreparationRepository(uow);
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
    expect(await prep.recordScore('j_a', { score: 40, detail: { rationale: 'x' }, profileRevision: 1, threshold: 60 })).toEqual({ applied: true, stage: 'scored' });
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'scored', score: 40, scoreProfileRevision: 1 });
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

describe('JobRepository enrichment selection and retries', () => {
  /** Counts the rows SQLite hands back to the repository, to show where the filtering happens. */
  class CountingUnitOfWork extends UnitOfWorkFactory {
    rowsRead = 0;
    override run<T>(fn: (uow: UnitOfWork) => Promise<T>): Promise<T> {
      return super.run((uow) => {
        const query = uow.manager.query.bind(uow.manager);
        uow.manager.query = async (sql: string, params?: unknown[]) => {
          const rows = await query(sql, params);
          if (Array.isArray(rows)) this.rowsRead += rows.length;
          return rows;
        };
        return fn(uow);
      });
    }
  }

  it('filters, excludes and limits in SQL: a poll reads at most `limit` rows however many the run holds', async () => {
    const counting = new CountingUnitOfWork({ databasePath: path.join(dir, 'jobctrl.sqlite'), entities: [] });
    const big = new JobRepository(counting);
    const many = Array.from({ length: 60 }, (_, i) => posting({ jobKey: `j_${i}`, idempotencyKey: `v1-j_${i}`, contentKey: `c_${i}`, externalId: `${i}`, url: `https://x.test/jobs/${i}` }));
    await big.recordObservations('r1', 'g', many);
    for (let i = 0; i < 10; i++) await big.recordEnrichment(`j_${i}`, { status: 'enriched' });
    const exclude = new Set(Array.from({ length: 20 }, (_, i) => `j_${10 + i}`));
    counting.rowsRead = 0;
    const picked = await big.selectForEnrichment('r1', { includeRecoverable: true, exclude, limit: 3 });
    expect(picked).toHaveLength(3);
    expect(picked.every((j) => !exclude.has(j.jobKey) && j.status === 'pending')).toBe(true);
    expect(counting.rowsRead).toBeLessThanOrEqual(3);
  });

  it('a retryable failure is selected again only once its backoff elapsed, and one claim takes it at a time', async () => {
    const t0 = Date.UTC(2025, 0, 1);
    await jobs.recordObservations('r1', 'g', [posting()]);
    await jobs.recordEnrichment('j_a', { status: 'failed_retryable', error: 'robots.txt unreachable', nextAttemptAt: t0 + 60_000 }, t0);
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_enrichment', enrichmentAttempts: 1, enrichmentNextAttemptAt: new Date(t0 + 60_000).toISOString() });
    const select = (now: number) => jobs.selectForEnrichment('r1', { includeRecoverable: true, exclude: new Set(), limit: 10, now });
    expect(await select(t0 + 59_999)).toEqual([]);
    expect(await jobs.claimDueEnrichmentRetries({ limit: 10, now: t0 + 59_999 })).toEqual([]);
    expect(await select(t0 + 60_000)).toEqual([expect.objectContaining({ jobKey: 'j_a', status: 'failed_retryable', attempts: 1 })]);
    // Claimed by that selection: the retry pass outside the run does not take it as well, until the lease ends.
    expect(await jobs.claimDueEnrichmentRetries({ limit: 10, now: t0 + 60_000 })).toEqual([]);
    expect((await jobs.claimDueEnrichmentRetries({ limit: 10, now: t0 + 60_000 + ENRICHMENT_CLAIM_LEASE_MS })).map((j) => j.jobKey)).toEqual(['j_a']);
    // Giving up moves it on with the source's text, and nothing is scheduled any more.
    expect(await jobs.recordEnrichment('j_a', { status: 'source_only', error: 'gave up' })).toBe('v1-j_a');
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_score', enrichmentStatus: 'source_only', enrichmentAttempts: 2, enrichmentNextAttemptAt: null });
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

describe('PreparationRepository', () => {
  async function enriched(keys: string[]) {
    await jobs.recordObservations('r1', 'g', keys.map((k, i) => posting({ jobKey: k, idempotencyKey: `v1-${k}`, contentKey: `c_${k}`, externalId: String(i), url: `https://x.test/${k}` })));
    for (const k of keys) await jobs.recordEnrichment(k, { status: 'enriched', descriptionText: 'text' });
  }

  it('moves a job through score → tailor → cover → prepared, guarded by the expected stage', async () => {
    await enriched(['j_a']);
    expect(await prep.recordScore('j_a', { score: 75, detail: {}, profileRevision: 2, threshold: 60 })).toEqual({ applied: true, stage: 'pending_tailor' });
    // A cover decision for a job that is not pending_cover changes nothing.
    expect(await prep.recordCoverDecision('j_a', { accepted: true }, true)).toBe('pending_tailor');
    expect(await prep.recordTailored('j_a', { skills: ['TypeScript'] })).toBe('pending_cover');
    expect(await prep.recordTailored('j_a', { skills: ['late retry'] })).toBe('pending_cover');
    expect(await prep.recordCoverDraft('j_a', { text: 'draft 1' })).toBe(1);
    expect(await prep.recordCoverDecision('j_a', { accepted: false }, false)).toBe('pending_cover');
    expect(await prep.recordCoverDraft('j_a', { text: 'draft 2' })).toBe(2);
    expect((await jobs.get('j_a'))?.coverReview).toBeNull();
    expect(await prep.recordCoverDecision('j_a', { accepted: true }, true)).toBe('prepared');
    expect(await jobs.get('j_a')).toMatchObject({
      stage: 'prepared',
      tailoredResume: { skills: ['TypeScript'] },
      coverLetter: { text: 'draft 2' },
      coverReview: { accepted: true },
      coverAttempts: 2,
      preparedAt: expect.any(String),
    });
  });

  it('getFenced reads the job and the fence its write is checked against in one unit of work; a write after the read makes that fence stale', async () => {
    await enriched(['j_a']);
    const uow = (jobs as unknown as { uow: UnitOfWorkFactory }).uow;
    const run = uow.run.bind(uow);
    let units = 0;
    uow.run = ((fn: Parameters<typeof run>[0]) => (units++, run(fn))) as typeof uow.run;
    const read = await jobs.getFenced('j_a');
    expect(units).toBe(1);
    expect(read?.job).toMatchObject({ jobKey: 'j_a', stage: 'pending_score', descriptionText: 'text' });
    expect(read?.fence).toEqual(await prep.fenceOf('j_a'));
    // Another attempt's write in between: this attempt's late write is refused.
    expect(await prep.recordScore('j_a', { score: 90, detail: {}, profileRevision: 1, threshold: 60 }, read?.fence)).toEqual({ applied: true, stage: 'pending_tailor' });
    expect(await prep.recordScore('j_a', { score: 10, detail: {}, profileRevision: 1, threshold: 60 }, read?.fence)).toEqual({ applied: false, stage: 'pending_tailor' });
    expect(await jobs.getFenced('missing')).toBeNull();
  });

  it('a fenced write holds the writer for three statements when it applies (BEGIN IMMEDIATE, UPDATE, COMMIT), one more to report the stage when it is refused', async () => {
    await enriched(['j_a']);
    const uow = (jobs as unknown as { uow: UnitOfWorkFactory }).uow;
    const run = uow.run.bind(uow);
    const statements: string[] = [];
    uow.run = ((fn: (u: UnitOfWork) => Promise<unknown>) =>
      run((u) => {
        const query = u.queryRunner.query.bind(u.queryRunner);
        u.queryRunner.query = ((sql: string, ...rest: never[]) => (statements.push(sql.trim().split(/\s+/)[0]), query(sql, ...rest))) as typeof query;
        return fn(u);
      })) as typeof uow.run;
    const fence = await prep.fenceOf('j_a');
    statements.length = 0;
    expect(await prep.recordScore('j_a', { score: 90, detail: {}, profileRevision: 1, threshold: 60 }, fence)).toEqual({ applied: true, stage: 'pending_tailor' });
    expect(statements).toEqual(['BEGIN', 'UPDATE', 'COMMIT']);
    statements.length = 0;
    expect(await prep.recordTailored('j_a', {}, fence)).toBe('pending_tailor');
    expect(statements).toEqual(['BEGIN', 'UPDATE', 'SELECT', 'COMMIT']);
    expect(await prep.recordTailored('j_a', {}, await prep.fenceOf('j_a'))).toBe('pending_cover');
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_cover', score: 90 });
  });

  it('ends at cover_rejected when the final draft is rejected', async () => {
    await enriched(['j_a']);
    await prep.recordScore('j_a', { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
    await prep.recordTailored('j_a', {});
    await prep.recordCoverDraft('j_a', { text: 'x' });
    expect(await prep.recordCoverDecision('j_a', { accepted: false }, true)).toBe('cover_rejected');
  });

  it('selects pending stages, a run, stale profile revisions and idle jobs', async () => {
    await enriched(['j_a', 'j_b', 'j_c']);
    await prep.recordScore('j_a', { score: 10, detail: {}, profileRevision: 1, threshold: 60 });
    await prep.recordScore('j_b', { score: 90, detail: {}, profileRevision: 2, threshold: 60 });
    const keys = async (o: Parameters<PreparationRepository['selectForPreparation']>[0]) => (await prep.selectForPreparation(o)).map((t) => t.jobKey);
    expect(await keys({ stages: ['pending_score'] })).toEqual(['j_c']);
    expect(await keys({ stages: ['pending_score', 'pending_tailor'], runId: 'r1' })).toEqual(['j_b', 'j_c']);
    expect(await keys({ stages: ['pending_score', 'pending_tailor'], runId: 'other' })).toEqual([]);
    expect(await keys({ stages: [], staleBelowRevision: 2 })).toEqual(['j_a', 'j_c']);
    expect(await keys({ stages: ['pending_tailor'], idleSinceMs: 0 })).toEqual([]);
    expect(await keys({ stages: ['pending_tailor'], idleSinceMs: Date.now() + 1 })).toEqual(['j_b']);
  });

  it('records and clears the spend pause', async () => {
    await enriched(['j_a']);
    await prep.setPrepStatus('j_a', 'spend_ceiling_reached');
    expect((await jobs.get('j_a'))?.prepStatus).toBe('spend_ceiling_reached');
    await prep.recordScore('j_a', { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
    expect((await jobs.get('j_a'))?.prepStatus).toBeNull();
  });
});
