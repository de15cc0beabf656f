import { MockActivityEnvironment } from '@temporalio/testing';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { openJobStore, seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { LlmRuntime, SpendLedgerRepository, type PriceTable } from '@jobctrl/shared/llm';
import { startLlmSimulator, type LlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { composeCoverLetterExtractive } from './extractive-letter.composer';
import { createCoverLetterActivities, type CoverLetterActivityDeps } from './cover-letter.activities';
import { ReviewExecutor } from './review.executor';

const dbs = tempDbDir('cover');
afterAll(() => dbs.cleanup());

/** A letter that passes the quality review but claims work at an employer the profile does not list. */
function fabricatedLetter(): string {
  const honest = composeCoverLetterExtractive(sampleProfile(), samplePosting()).text;
  return honest.replace(/\n\n/, '\n\nBefore that, I worked at Initech for five years as a staff engineer.\n\n');
}

async function world(opts: { sim?: LlmSimulator; reviewDatabasePath?: string; prices?: PriceTable } = {}) {
  const databasePath = dbs.file('cover');
  const { uow, jobs, prep } = await openJobStore(databasePath);
  const profiles = new ProfileRepository(uow);
  await profiles.put(sampleProfile());
  await seedEnrichedJob(jobs, { jobKey: 'j1', ...samplePosting() });
  await prep.recordScore('j1', { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
  await prep.recordTailored('j1', { skills: [] });
  const reviewDatabase = opts.reviewDatabasePath ? new UnitOfWorkFactory({ databasePath: opts.reviewDatabasePath, entities: [] }) : uow;
  const ledger = new SpendLedgerRepository(uow);
  const llm = opts.sim
    ? new LlmRuntime({ provider: 'openai', model: 'sim', baseUrl: opts.sim.url, prices: opts.prices ?? {}, timeoutMs: 60_000, ledger, ceilingUsd: () => 100 })
    : new LlmRuntime({ provider: 'extractive', prices: {}, timeoutMs: 5000, ledger, ceilingUsd: () => 100 });
  const deps: CoverLetterActivityDeps = { jobs, prep, profile: () => profiles.get(), llm, reviews: new ReviewExecutor({ leafLimit: 2 }), reviewDatabase, processDatabasePath: databasePath };
  return { jobs, prep, ledger, activities: createCoverLetterActivities(deps), databasePath };
}

describe('cover letter activities', () => {
  it('a model letter naming an employer the profile does not list is rejected by the factual review — even when the model reviewer passes it — and never accepted', async () => {
    const sim = await startLlmSimulator({
      respond: (req) => (req.schemaName === 'cover_letter' ? { text: fabricatedLetter() } : { passed: true, issues: [] }),
    });
    try {
      const { jobs, activities } = await world({ sim });
      const env = new MockActivityEnvironment();
      for (const finalAttempt of [false, true]) {
        const { attempt } = (await env.run(activities.writeCoverLetter, { jobKey: 'j1' })) as { attempt: number };
        expect(attempt).toBe(finalAttempt ? 2 : 1);
        const review = (await env.run(activities.reviewCoverLetter, { jobKey: 'j1', finalAttempt })) as { accepted: boolean; issues: string[]; stage: string };
        expect(review).toMatchObject({ accepted: false, outcome: 'rejected' });
        expect(review.issues).toContain('unsupported employer: Initech');
        expect(review.stage).toBe(finalAttempt ? 'cover_rejected' : 'pending_cover');
      }
      const job = await jobs.get('j1');
      expect(job?.stage).toBe('cover_rejected');
      expect(job?.coverReview).toMatchObject({ accepted: false, by: 'factual' });
      // The second draft was asked for with the first pair's issues as feedback.
      const drafts = sim.requests.filter((r) => JSON.stringify(r.body).includes('cover_letter'));
      expect(drafts).toHaveLength(2);
      expect(JSON.stringify(drafts[1].body)).toContain('unsupported employer: Initech');
    } finally {
      await sim.close();
    }
  });

  it('extractive: the letter passes both reviews and is accepted; the job is prepared', async () => {
    const { jobs, activities } = await world();
    const env = new MockActivityEnvironment();
    await env.run(activities.writeCoverLetter, { jobKey: 'j1' });
    expect(await env.run(activities.reviewCoverLetter, { jobKey: 'j1', finalAttempt: false })).toMatchObject({ accepted: true, stage: 'prepared' });
    expect((await jobs.get('j1'))?.coverReview).toMatchObject({ accepted: true, verdicts: { factual: { passed: true }, quality: { passed: true } } });
  });

  it('the review call cancelled because the other leaf failed first is still charged: the ledger counts every request the server answered or held', async () => {
    // The factual review fails (a fabricated employer) while the quality review is still running on the server.
    const sim = await startLlmSimulator({
      latencyMs: (req) => (req.schemaName === 'quality_review' ? 60_000 : req.schemaName === 'factual_review' ? 500 : 0),
      respond: (req) => (req.schemaName === 'cover_letter' ? { text: fabricatedLetter() } : { passed: true, issues: [] }),
    });
    try {
      const { ledger, activities } = await world({ sim, prices: { sim: { input_usd_per_mtok: 1000, output_usd_per_mtok: 1000 } } });
      const env = new MockActivityEnvironment();
      await env.run(activities.writeCoverLetter, { jobKey: 'j1' });
      const review = await env.run(activities.reviewCoverLetter, { jobKey: 'j1', finalAttempt: false });
      expect(review).toMatchObject({ accepted: false, outcome: 'rejected', stage: 'pending_cover' });
      expect(sim.requests.map((r) => (r.body?.['response_format'] as { json_schema: { name: string } }).json_schema.name).sort()).toEqual(['cover_letter', 'factual_review', 'quality_review']);
      const spend = await ledger.summary();
      expect(spend.calls).toBe(sim.requests.length);
      // The cancelled quality review is charged at its worst case: a full max_tokens answer.
      expect(spend.byLane.review).toBeGreaterThan(spend.byLane.cover);
    } finally {
      await sim.close();
    }
  });

  it('an extractive pair spends nothing and reads nothing from the captured review database: its leaves open no connection there', async () => {
    // The leaf guard protects model work; an extractive verdict reaches the job only through the
    // coordinator's fenced write on the process database. A review database that is not even a
    // database file would fail any leaf that opened it.
    const { jobs, activities } = await world({ reviewDatabasePath: dbs.file('not-a-database-dir') + '/missing/x.sqlite' });
    const env = new MockActivityEnvironment();
    await env.run(activities.writeCoverLetter, { jobKey: 'j1' });
    const review = (await env.run(activities.reviewCoverLetter, { jobKey: 'j1', finalAttempt: true })) as { accepted: boolean; stage: string };
    expect(review).toMatchObject({ accepted: true, stage: 'prepared' });
    expect(await jobs.get('j1')).toMatchObject({ stage: 'prepared', coverReview: expect.objectContaining({ accepted: true }) });
  });

  it('a review whose captured database is not the process database fails before any model work, and nothing is recorded', async () => {
    const sim = await startLlmSimulator({ respond: (req) => (req.schemaName === 'cover_letter' ? { text: fabricatedLetter() } : { passed: true, issues: [] }) });
    try {
      const other = dbs.file('other');
      await runMigrations({ databasePath: other });
      const { jobs, activities } = await world({ sim, reviewDatabasePath: other });
      const env = new MockActivityEnvironment();
      await env.run(activities.writeCoverLetter, { jobKey: 'j1' });
      const before = sim.requests.length;
      await expect(env.run(activities.reviewCoverLetter, { jobKey: 'j1', finalAttempt: true })).rejects.toMatchObject({ type: 'review_database_mismatch', nonRetryable: true });
      expect(sim.requests.length).toBe(before);
      expect(await jobs.get('j1')).toMatchObject({ stage: 'pending_cover', coverReview: null });
    } finally {
      await sim.close();
    }
  });
});
