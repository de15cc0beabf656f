import { MockActivityEnvironment } from '@temporalio/testing';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { type StageFence } from '@jobctrl/shared/jobs';
import { openJobStore, seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { LlmRuntime, SpendLedgerRepository } from '@jobctrl/shared/llm';
import { startLlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile, samplePosting } from '@jobctrl/shared/profile/testing';
import { createScoringActivities } from './scoring.activities';

const dbs = tempDbDir('scoring');
afterAll(() => dbs.cleanup());

describe('scoreJob', () => {
  it('an attempt that finishes after its retry took the job to prepared changes nothing and reports the job as it is', async () => {
    // Answers in the order they are sent back: the retry's first (85), the held-back attempt's last (10).
    let answered = 0;
    const sim = await startLlmSimulator({ respond: () => ({ score: answered++ === 0 ? 85 : 10, rationale: 'Fit.', matched: [], missing: [] }) });
    try {
      const { uow, jobs, prep } = await openJobStore(dbs.file('scoring'));
      const profiles = new ProfileRepository(uow);
      await profiles.put(sampleProfile());
      await seedEnrichedJob(jobs, { jobKey: 'j1', ...samplePosting() });
      const llm = new LlmRuntime({ provider: 'openai', model: 'sim', baseUrl: sim.url, prices: {}, timeoutMs: 60_000, ledger: new SpendLedgerRepository(uow), ceilingUsd: () => 100 });
      const activities = createScoringActivities({ jobs, prep, profile: () => profiles.get(), llm, threshold: () => 60 });

      // Attempt 1's model answer is held back (it "timed out" as far as Temporal is concerned).
      let release!: () => void;
      sim.enqueue({ holdUntil: new Promise<void>((resolve) => (release = resolve)) });
      const late = new MockActivityEnvironment().run(activities.scoreJob, { jobKey: 'j1' });
      while (sim.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));

      // The retry scores, and the job goes on through tailoring and an accepted letter.
      expect(await new MockActivityEnvironment().run(activities.scoreJob, { jobKey: 'j1' })).toEqual({ score: 85, stage: 'pending_tailor', rescored: true });
      const fence = async () => (await prep.fenceOf('j1')) as StageFence;
      await prep.recordTailored('j1', { resume: 'tailored' }, await fence());
      await prep.recordCoverDraft('j1', { text: 'letter' }, await fence());
      expect(await prep.recordCoverDecision('j1', { accepted: true }, false, await fence())).toBe('prepared');

      release();
      expect(await late).toEqual({ score: 85, stage: 'prepared', rescored: false });
      expect(await jobs.get('j1')).toMatchObject({ stage: 'prepared', score: 85, tailoredResume: { resume: 'tailored' }, coverLetter: { text: 'letter' } });
    } finally {
      await sim.close();
    }
  });

  it('reads the job with its fence in one unit of work: three units per score (job + fence, profile, fenced write)', async () => {
    const { uow, jobs, prep } = await openJobStore(dbs.file('scoring-units'));
    const profiles = new ProfileRepository(uow);
    await profiles.put(sampleProfile());
    await seedEnrichedJob(jobs, { jobKey: 'j1', ...samplePosting() });
    const run = uow.run.bind(uow);
    let units = 0;
    uow.run = ((fn: Parameters<typeof run>[0]) => (units++, run(fn))) as typeof uow.run;
    const llm = new LlmRuntime({ provider: 'extractive', prices: {}, timeoutMs: 1000, ledger: new SpendLedgerRepository(uow), ceilingUsd: () => 0 });
    const activities = createScoringActivities({ jobs, prep, profile: () => profiles.get(), llm, threshold: () => 0 });
    expect(await new MockActivityEnvironment().run(activities.scoreJob, { jobKey: 'j1' })).toMatchObject({ stage: 'pending_tailor', rescored: true });
    expect(units).toBe(3);
  });

  it("weighs the job's published pay against the profile's minimum salary (extractive)", async () => {
    const { uow, jobs, prep } = await openJobStore(dbs.file('scoring-pay'));
    const profiles = new ProfileRepository(uow);
    await profiles.put(sampleProfile()); // minimum CAD 150,000
    await seedEnrichedJob(jobs, { jobKey: 'j1', ...samplePosting() });
    await uow.run(({ manager }) =>
      manager.query(
        `INSERT INTO job_compensation (job_key, refresh_id, kind, currency, interval, min, max, min_yearly, max_yearly, confidence, method, summary_json, rows_json, published_at)
         VALUES ('j1', 'r', 'base', 'CAD', 'year', 60000, 75000, 60000, 75000, 0.98, 'parser', ?, '[]', 0)`,
        [JSON.stringify({ kind: 'base', currency: 'CAD', interval: 'year', min: 60000, max: 75000, minYearly: 60000, maxYearly: 75000 })],
      ),
    );
    const llm = new LlmRuntime({ provider: 'extractive', prices: {}, timeoutMs: 1000, ledger: new SpendLedgerRepository(uow), ceilingUsd: () => 0 });
    const activities = createScoringActivities({ jobs, prep, profile: () => profiles.get(), llm, threshold: () => 60 });
    await new MockActivityEnvironment().run(activities.scoreJob, { jobKey: 'j1' });
    const detail = (await jobs.get('j1'))?.scoreDetail as { components: { pay?: number }; rationale: string };
    expect(detail.components.pay).toBe(0.5);
    expect(detail.rationale).toContain('Pay: up to CAD 75,000 a year, below the minimum CAD 150,000 (50%).');
  });
});
