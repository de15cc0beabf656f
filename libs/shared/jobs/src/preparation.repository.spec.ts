import * as fs from 'node:fs';
import * as path from 'node:path';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { PreparationRepository, type StageFence } from './preparation.repository';
import { openJobStore, seedEnrichedJob } from './testing/job.fixture';

const dbs = tempDbDir('prep-fence');
afterAll(() => dbs.cleanup());

/** A real SQLite file holding one enriched job, pending_score. */
async function world() {
  const { jobs, prep } = await openJobStore(dbs.file('prep'));
  await seedEnrichedJob(jobs, { jobKey: 'j1', title: 'Engineer', company: 'Acme', description: 'Build things.' });
  const fence = async (): Promise<StageFence> => (await prep.fenceOf('j1')) as StageFence;
  /** One attempt of each stage from the job's current state to prepared, each fenced like the activities. */
  const prepareFully = async (revision: number): Promise<void> => {
    expect((await prep.recordScore('j1', { score: 90, detail: { by: `attempt at r${revision}` }, profileRevision: revision, threshold: 60 }, await fence())).applied).toBe(true);
    expect(await prep.recordTailored('j1', { resume: `r${revision}` }, await fence())).toBe('pending_cover');
    await prep.recordCoverDraft('j1', { text: `letter r${revision}` }, await fence());
    expect(await prep.recordCoverDecision('j1', { accepted: true }, false, await fence())).toBe('prepared');
  };
  return { jobs, prep, fence, prepareFully };
}

describe('PreparationRepository: writes fenced on the stage and version an attempt read at its start', () => {
  it('a late score write after the job reached prepared is a no-op: the job stays prepared with its artifacts', async () => {
    const { jobs, prep, fence, prepareFully } = await world();
    // Attempt 1 reads the job at pending_score, then times out while its model call runs on.
    const late = await fence();
    expect(late.stage).toBe('pending_score');
    // Attempt 2 (Temporal's retry) scores, and the job goes all the way to prepared.
    await prepareFully(1);
    const before = await jobs.get('j1');

    const write = await prep.recordScore('j1', { score: 10, detail: { by: 'late attempt' }, profileRevision: 1, threshold: 60 }, late);
    expect(write).toEqual({ applied: false, stage: 'prepared' });
    const after = await jobs.get('j1');
    expect(after).toMatchObject({ stage: 'prepared', score: 90, scoreDetail: { by: 'attempt at r1' }, tailoredResume: { resume: 'r1' }, coverLetter: { text: 'letter r1' }, coverReview: { accepted: true } });
    expect(after?.preparedAt).toBe(before?.preparedAt);
  });

  it('a re-score against a newer profile still applies to a prepared job, fenced on what it read', async () => {
    const { jobs, prep, fence, prepareFully } = await world();
    await prepareFully(1);
    const write = await prep.recordScore('j1', { score: 95, detail: {}, profileRevision: 2, threshold: 60 }, await fence());
    expect(write).toEqual({ applied: true, stage: 'pending_tailor' });
    expect(await jobs.get('j1')).toMatchObject({ stage: 'pending_tailor', scoreProfileRevision: 2, tailoredResume: null });
  });

  it('a late re-score is refused even when the job has come back to the stage it read (the version moved)', async () => {
    const { jobs, prep, fence, prepareFully } = await world();
    await prepareFully(1);
    // A re-score attempt reads the prepared job and stalls; its retry re-scores and goes round to prepared again.
    const stalled = await fence();
    await prepareFully(2);
    expect((await jobs.get('j1'))?.stage).toBe(stalled.stage);

    expect(await prep.recordScore('j1', { score: 10, detail: {}, profileRevision: 2, threshold: 60 }, stalled)).toEqual({ applied: false, stage: 'prepared' });
    expect(await jobs.get('j1')).toMatchObject({ stage: 'prepared', score: 90, tailoredResume: { resume: 'r2' }, coverLetter: { text: 'letter r2' } });
  });

  it('a late tailoring write after the job moved on to its cover letter changes nothing', async () => {
    const { jobs, prep, fence } = await world();
    await prep.recordScore('j1', { score: 90, detail: {}, profileRevision: 1, threshold: 60 }, await fence());
    const late = await fence();
    expect(await prep.recordTailored('j1', { resume: 'on time' }, await fence())).toBe('pending_cover');
    await prep.recordCoverDraft('j1', { text: 'draft 1' }, await fence());

    expect(await prep.recordTailored('j1', { resume: 'late' }, late)).toBe('pending_cover');
    expect(await jobs.get('j1')).toMatchObject({ tailoredResume: { resume: 'on time' }, coverLetter: { text: 'draft 1' }, coverAttempts: 1 });
  });

  it('a superseded cover draft neither replaces the newer draft nor gets its review decision recorded', async () => {
    const { jobs, prep, fence } = await world();
    await prep.recordScore('j1', { score: 90, detail: {}, profileRevision: 1, threshold: 60 }, await fence());
    await prep.recordTailored('j1', { resume: 'r' }, await fence());
    // Writer attempt A reads the job, stalls; its retry B writes draft 1.
    const writerA = await fence();
    expect(await prep.recordCoverDraft('j1', { text: 'draft B' }, await fence())).toBe(1);
    // A review of draft 1 starts; meanwhile the stalled writer A finishes late.
    const review = await fence();
    expect(await prep.recordCoverDraft('j1', { text: 'draft A (late)' }, writerA)).toBe(1);
    expect(await prep.recordCoverDecision('j1', { accepted: true }, false, review)).toBe('prepared');
    expect(await jobs.get('j1')).toMatchObject({ stage: 'prepared', coverLetter: { text: 'draft B' }, coverAttempts: 1, coverReview: { accepted: true } });
  });

  it('a review decision about a draft that was replaced since the review started is dropped', async () => {
    const { jobs, prep, fence } = await world();
    await prep.recordScore('j1', { score: 90, detail: {}, profileRevision: 1, threshold: 60 }, await fence());
    await prep.recordTailored('j1', { resume: 'r' }, await fence());
    await prep.recordCoverDraft('j1', { text: 'draft 1' }, await fence());
    const reviewOfDraft1 = await fence();
    await prep.recordCoverDraft('j1', { text: 'draft 2' }, await fence());

    expect(await prep.recordCoverDecision('j1', { accepted: true }, false, reviewOfDraft1)).toBe('pending_cover');
    expect(await jobs.get('j1')).toMatchObject({ stage: 'pending_cover', coverLetter: { text: 'draft 2' }, coverAttempts: 2, coverReview: null });
  });
});

describe('PreparationRepository.staleCoverDraft: what a cover review leaf checks on its own connection', () => {
  it('passes on the process database (also through a link) while the draft is current, and says why not otherwise', async () => {
    const databasePath = dbs.file('review-db');
    const { jobs, prep } = await openJobStore(databasePath);
    await seedEnrichedJob(jobs, { jobKey: 'j1', title: 'Engineer', company: 'Acme', description: 'Build things.' });
    await prep.recordScore('j1', { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
    await prep.recordTailored('j1', { resume: 'r' });
    await prep.recordCoverDraft('j1', { text: 'draft 1' });
    expect(await prep.staleCoverDraft('j1', 1, databasePath)).toBeNull();
    const link = path.join(path.dirname(databasePath), 'link.sqlite');
    fs.symlinkSync(databasePath, link);
    expect(await prep.staleCoverDraft('j1', 1, link)).toBeNull();
    expect(await prep.staleCoverDraft('j1', 0, databasePath)).toBe('draft 0 of j1 is no longer current');

    // A review connection that opened another (unmigrated) file is refused before the job is read there.
    const otherPath = dbs.file('review-other');
    fs.mkdirSync(path.dirname(otherPath), { recursive: true });
    const other = new PreparationRepository(new UnitOfWorkFactory({ databasePath: otherPath, entities: [] }));
    expect(await other.staleCoverDraft('j1', 1, databasePath)).toBe(`review database ${otherPath} is not the process database ${databasePath}`);
  });
});
