import { tempDbDir } from '@jobctrl/shared/db/testing';
import { preparationAttempt } from './preparation-attempt';
import { openJobStore, seedEnrichedJob } from './testing';

const dbs = tempDbDir('prep-attempt');
afterAll(() => dbs.cleanup());

async function store(name: string) {
  const s = await openJobStore(dbs.file(name));
  await seedEnrichedJob(s.jobs, { jobKey: 'j1', title: 'Engineer', company: 'Acme', description: 'TypeScript' });
  const run = s.uow.run.bind(s.uow);
  const counted = { units: 0 };
  s.uow.run = ((fn: Parameters<typeof run>[0]) => (counted.units++, run(fn))) as typeof s.uow.run;
  return { ...s, counted };
}

describe('preparationAttempt', () => {
  it("an attempt's next stage starts from the job its own write left, read back on the write's unit: no unit of work of its own", async () => {
    const { uow, prep, counted } = await store('chain');
    const attempt = preparationAttempt(uow);
    const first = await attempt.jobs.getFenced('j1');
    expect(first?.job.stage).toBe('pending_score');
    counted.units = 0;
    expect(await attempt.prep.recordScore('j1', { score: 80, detail: {}, profileRevision: 1, threshold: 60 }, first?.fence)).toEqual({ applied: true, stage: 'pending_tailor' });
    const next = await attempt.jobs.getFenced('j1');
    expect(counted.units).toBe(1); // the write alone
    expect(next?.job).toMatchObject({ jobKey: 'j1', stage: 'pending_tailor', score: 80 });
    expect(next?.fence).toEqual(await prep.fenceOf('j1'));
    // Served once: a second read goes to the database; so does another attempt's.
    counted.units = 0;
    expect((await attempt.jobs.getFenced('j1'))?.job.stage).toBe('pending_tailor');
    expect((await preparationAttempt(uow).jobs.getFenced('j1'))?.job.stage).toBe('pending_tailor');
    expect(counted.units).toBe(2);
  });

  it("a write by anyone else after the attempt's own still fails the fence it hands on, and nothing is held after a refused write", async () => {
    const { uow, prep, counted } = await store('fenced');
    const attempt = preparationAttempt(uow);
    await attempt.prep.recordScore('j1', { score: 80, detail: {}, profileRevision: 1, threshold: 60 }, await prep.fenceOf('j1'));
    expect(await attempt.prep.recordTailored('j1', { resume: 'r' }, (await attempt.jobs.getFenced('j1'))?.fence)).toBe('pending_cover');
    // A re-prepare lands between the tailoring write and the draft.
    expect(await prep.requeueForScoring('j1')).toEqual({ applied: true, stage: 'pending_score' });
    const held = await attempt.jobs.getFenced('j1');
    expect(held?.job.stage).toBe('pending_cover');
    expect(await attempt.prep.recordCoverDraft('j1', { text: 'late draft' }, held?.fence)).toBe(0);
    counted.units = 0;
    expect(await attempt.jobs.getFenced('j1')).toMatchObject({ job: { stage: 'pending_score', coverLetter: null } });
    expect(counted.units).toBe(1);
  });
});
