import type { InlinePreparationResult, PreparationSteps } from '@jobctrl/pipeline/contracts';
import type { StoredProfile } from '@jobctrl/shared/profile';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createExtractivePreparationActivities } from './extractive-preparation.activity';

/**
 * Stage steps over one job held in memory, behaving as the stage activities do: each acts only in its
 * own pending stage and otherwise reports where the job stands. `failOnce` makes one step fail once
 * after its write, as a crash after a commit would.
 */
function job(failOnce?: keyof PreparationSteps, before = false) {
  const state = { stage: 'scored', score: 10, stale: true, drafts: 0, reviewed: false };
  const calls: string[] = [];
  let failed = false;
  const step = <T>(name: keyof PreparationSteps, act: () => T): T => {
    calls.push(name);
    if (before && name === failOnce && !failed) {
      failed = true;
      throw new Error(`${name} lost its worker before its write`);
    }
    const out = act();
    if (name === failOnce && !failed) {
      failed = true;
      throw new Error(`${name} lost its worker`);
    }
    return out;
  };
  const steps: PreparationSteps = {
    scoreJob: async ({ allowScore }) =>
      step('scoreJob', () => {
        if (allowScore && state.stale) Object.assign(state, { stale: false, score: 80, stage: 'pending_tailor' });
        return { score: state.score, stage: state.stage };
      }),
    tailorResume: async () => step('tailorResume', () => ({ stage: state.stage === 'pending_tailor' ? (state.stage = 'pending_cover') : state.stage })),
    writeCoverLetter: async () => step('writeCoverLetter', () => ({ attempt: state.stage === 'pending_cover' ? (state.reviewed = false, ++state.drafts) : state.drafts })),
    reviewCoverLetter: async () => step('reviewCoverLetter', () => ({ stage: state.stage === 'pending_cover' ? ((state.reviewed = true), (state.stage = 'prepared')) : state.stage })),
  };
  // The profile the steps see: a read counts, and a step reads it before it acts (as the stages do).
  let reads = 0;
  const profile = async () => ({ revision: ++reads }) as unknown as StoredProfile;
  const seen: number[] = [];
  const stepsOn = (read: () => Promise<StoredProfile>): PreparationSteps =>
    Object.fromEntries(
      Object.entries(steps).map(([name, run]) => [name, async (input: never) => (seen.push((await read()).revision), (run as (i: never) => unknown)(input))]),
    ) as unknown as PreparationSteps;
  // The job as the repository reads it: a draft is stored with its attempt, a review beside it.
  const readJob = async () => ({ stage: state.stage, coverAttempts: state.drafts, coverLetter: state.drafts > 0 ? { text: 'draft' } : null, coverReview: state.reviewed ? { accepted: true } : null }) as never;
  return { state, calls, steps, stepsOn, profile, seen, reads: () => reads, deps: { steps: stepsOn, profile, readJob } };
}

describe('prepareJobExtractive', () => {
  it("asked to classify first, classifies the job's pay before its score; a failed classification leaves the pay unknown and the job is scored all the same", async () => {
    for (const fails of [false, true]) {
      const j = job();
      const classified: unknown[] = [];
      const classifyCompensation = async (input: { jobKey: string; idempotencyKey: string }) => {
        classified.push({ input, before: [...j.calls] });
        if (fails) throw new Error('SQLITE_BUSY: database is locked');
        return { state: 'completed' };
      };
      const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps, classifyCompensation });
      const result = await new MockActivityEnvironment().run(prepareJobExtractive, { jobKey: 'a', stages: ['score' as const], classifyCompensation: { idempotencyKey: 'v1-a' } });
      expect(result).toMatchObject({ extractive: true, stage: 'pending_tailor', score: 80 });
      expect(classified).toEqual([{ input: { jobKey: 'a', idempotencyKey: 'v1-a' }, before: [] }]);
      expect(j.calls).toEqual(['scoreJob']);
    }
    // Not asked (a batch's full preparation): no classification.
    const j = job();
    const classifyCompensation = jest.fn();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps, classifyCompensation });
    await new MockActivityEnvironment().run(prepareJobExtractive, { jobKey: 'a', stages: ['score' as const] });
    expect(classifyCompensation).not.toHaveBeenCalled();
  });

  it('runs the selected stages in order in one call, then signals the batch where the job ended', async () => {
    const j = job();
    const signals: unknown[] = [];
    const signalDone = async (workflowId: string, done: unknown) => void signals.push({ workflowId, done, after: [...j.calls] });
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps, signalDone });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'], notify: { workflowId: 'pipeline-1', idempotencyKey: 'v1-a' } })).toEqual({
      extractive: true,
      stage: 'prepared',
      score: 80,
      notified: true,
    });
    expect(j.calls).toEqual(['scoreJob', 'tailorResume', 'writeCoverLetter', 'reviewCoverLetter']);
    // One profile read for the job, seen by every stage.
    expect(j.reads()).toBe(1);
    expect(j.seen).toEqual([1, 1, 1, 1]);
    expect(signals).toEqual([{ workflowId: 'pipeline-1', done: { idempotencyKey: 'v1-a', stage: 'prepared', failed: false }, after: j.calls }]);
  });

  it("reads the profile beside the job's own read when it scores, not after it; a read the attempt never awaits fails nothing else", async () => {
    const j = job();
    let asked = 0;
    const profile = async () => (asked++, j.profile());
    // Scoring as the stage does it: the job's read first, then the profile.
    let askedWhenTheJobWasRead = -1;
    const steps = (read: () => Promise<StoredProfile>): PreparationSteps => ({
      ...j.stepsOn(read),
      scoreJob: async (input) => {
        askedWhenTheJobWasRead = asked;
        await read();
        return j.steps.scoreJob(input);
      },
    });
    const { prepareJobStages } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps, profile, steps });
    await prepareJobStages({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] });
    expect(askedWhenTheJobWasRead).toBe(1);
    expect(asked).toBe(1);

    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const gone = job();
      const failing = createExtractivePreparationActivities({
        provider: () => 'extractive',
        ...gone.deps,
        profile: async () => Promise.reject(new Error('SQLITE_BUSY: database is locked')),
        steps: () => ({ ...gone.steps, scoreJob: async () => Promise.reject(new Error('job_not_found: a')) }),
      });
      await expect(failing.prepareJobStages({ jobKey: 'a', stages: ['score'] })).rejects.toThrow('job_not_found');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('a signal that does not go out is left to the workflow (notified false)', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps, signalDone: async () => Promise.reject(new Error('workflow not found')) });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score'], notify: { workflowId: 'gone', idempotencyKey: 'v1-a' } })).toMatchObject({ extractive: true, notified: false });
  });

  it('stops at the last selected stage', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score'] })).toEqual({ extractive: true, stage: 'pending_tailor', score: 80, notified: false });
    expect(j.calls).toEqual(['scoreJob']);
  });

  it('a retry after a failure mid-way resumes from the stage the job reached (nothing done twice)', async () => {
    const j = job('writeCoverLetter');
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...j.deps });
    await expect(prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).rejects.toThrow('lost its worker');
    expect(j.state).toMatchObject({ stage: 'pending_cover', drafts: 1 });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toMatchObject({ extractive: true, stage: 'prepared', score: 80 });
    // The retry's score step only reported the stage (pending_cover: no tailoring again), and it
    // reviews the draft the lost attempt wrote instead of writing a second one.
    expect(j.state.drafts).toBe(1);
    expect(j.calls.slice(3)).toEqual(['scoreJob', 'reviewCoverLetter']);
  });

  it('on a worker with a model provider does nothing, so the workflow goes stage by stage behind the spend preflight', async () => {
    const j = job();
    const { prepareJobExtractive } = createExtractivePreparationActivities({ provider: () => 'openai', ...j.deps });
    expect(await prepareJobExtractive({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toMatchObject({ extractive: false });
    expect(j.calls).toEqual([]);
    expect(j.state.stage).toBe('scored');
  });
});

describe('prepareJobStages', () => {
  it('runs the selected stages in order in one call whatever the provider, then signals the batch', async () => {
    const j = job();
    const signals: unknown[] = [];
    const signalDone = async (workflowId: string, done: unknown) => void signals.push({ workflowId, done });
    const { prepareJobStages } = createExtractivePreparationActivities({ provider: () => 'openai', ...j.deps, signalDone });
    expect(await prepareJobStages({ jobKey: 'a', stages: ['score', 'tailor', 'cover'], notify: { workflowId: 'pipeline-1', idempotencyKey: 'v1-a' } })).toEqual({ stage: 'prepared', score: 80, notified: true });
    expect(j.calls).toEqual(['scoreJob', 'tailorResume', 'writeCoverLetter', 'reviewCoverLetter']);
    expect(j.reads()).toBe(1);
    expect(signals).toEqual([{ workflowId: 'pipeline-1', done: { idempotencyKey: 'v1-a', stage: 'prepared', failed: false } }]);
  });

  it('a retry after an attempt lost before its review reviews the stored draft: no second draft, no second letter call', async () => {
    const j = job('reviewCoverLetter', true);
    const { prepareJobStages } = createExtractivePreparationActivities({ provider: () => 'openai', ...j.deps });
    await expect(prepareJobStages({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).rejects.toThrow('before its write');
    expect(j.state).toMatchObject({ stage: 'pending_cover', drafts: 1, reviewed: false });
    expect(await prepareJobStages({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] })).toMatchObject({ stage: 'prepared', score: 80 });
    expect(j.state.drafts).toBe(1);
    expect(j.calls.slice(4)).toEqual(['scoreJob', 'reviewCoverLetter']);
  });

  it('a job that reaches pending_cover from tailoring in this attempt gets its draft written (nothing read for it)', async () => {
    const j = job();
    let readJobs = 0;
    const { prepareJobStages } = createExtractivePreparationActivities({ provider: () => 'openai', ...j.deps, readJob: async () => (readJobs++, j.deps.readJob()) });
    await prepareJobStages({ jobKey: 'a', stages: ['score', 'tailor', 'cover'] });
    expect(readJobs).toBe(0);
    expect(j.state.drafts).toBe(1);
  });
});

/** Several jobs, each behaving as `job()`; scoring takes a moment, so jobs of one call overlap. */
function world(keys: string[], failing: string[] = []) {
  const each = new Map(keys.map((k) => [k, job()]));
  const of = (k: string) => each.get(k) as ReturnType<typeof job>;
  const started: string[] = [];
  let inFlight = 0;
  let most = 0;
  const steps: PreparationSteps = {
    scoreJob: async (i) => {
      started.push(i.jobKey);
      most = Math.max(most, ++inFlight);
      await new Promise((r) => setTimeout(r, 5));
      if (failing.includes(i.jobKey)) {
        inFlight--;
        throw new Error(`SQLITE_BUSY: database is locked (${i.jobKey})`);
      }
      return of(i.jobKey).steps.scoreJob(i);
    },
    tailorResume: (i) => of(i.jobKey).steps.tailorResume(i),
    writeCoverLetter: (i) => of(i.jobKey).steps.writeCoverLetter(i),
    reviewCoverLetter: async (i) => {
      const reviewed = await of(i.jobKey).steps.reviewCoverLetter(i);
      inFlight--;
      return reviewed;
    },
  };
  const deps = { steps: () => steps, profile: async () => ({ revision: 1 }) as unknown as StoredProfile, readJob: async (k: string) => of(k).deps.readJob() };
  return { of, started, most: () => most, deps };
}

const targets = (keys: string[]) => keys.map((k) => ({ jobKey: k, idempotencyKey: `v1-${k}` }));
const full = ['score', 'tailor', 'cover'] as const;

describe('prepareTargetsExtractive', () => {
  it("prepares a batch's jobs `concurrency` at a time, in order; a job that fails is deferred to a workflow of its own, not retried here; every settled job is heartbeated", async () => {
    const w = world(['a', 'b', 'c', 'd', 'e'], ['c']);
    const { prepareTargetsExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...w.deps });
    const env = new MockActivityEnvironment();
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(structuredClone(d)));
    const r = (await env.run(prepareTargetsExtractive, { jobs: targets(['a', 'b', 'c', 'd', 'e']), stages: [...full], concurrency: 2, budgetMs: 60_000 })) as InlinePreparationResult;
    expect(r.extractive).toBe(true);
    expect([...r.done].sort((x, y) => x.jobKey.localeCompare(y.jobKey))).toEqual(['a', 'b', 'd', 'e'].map((k) => ({ jobKey: k, idempotencyKey: `v1-${k}`, stage: 'prepared' })));
    expect(r.deferred).toEqual(targets(['c']));
    expect(r.unstarted).toEqual([]);
    expect(w.started).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(w.most()).toBe(2);
    for (const k of ['a', 'b', 'd', 'e']) expect(w.of(k).state).toMatchObject({ stage: 'prepared', drafts: 1, reviewed: true });
    expect(w.of('c').state.stage).toBe('scored');
    expect(beats).toHaveLength(5);
    expect(beats[4]).toEqual({ done: r.done, deferred: r.deferred });
  });

  it('a retry skips the jobs its lost attempt heartbeated and reports them with its own; a spent budget leaves the rest unstarted', async () => {
    const w = world(['a', 'b', 'c']);
    const { prepareTargetsExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...w.deps });
    const before = { done: [{ jobKey: 'a', idempotencyKey: 'v1-a', stage: 'prepared' }], deferred: targets(['b']) };
    const r = await new MockActivityEnvironment({ heartbeatDetails: before }).run(prepareTargetsExtractive, { jobs: targets(['a', 'b', 'c']), stages: [...full], concurrency: 2, budgetMs: 60_000 });
    expect(w.started).toEqual(['c']);
    expect(r).toEqual({ extractive: true, done: [...before.done, { jobKey: 'c', idempotencyKey: 'v1-c', stage: 'prepared' }], deferred: targets(['b']), unstarted: [] });

    const spent = await new MockActivityEnvironment().run(prepareTargetsExtractive, { jobs: targets(['a', 'b']), stages: [...full], concurrency: 2, budgetMs: 0 });
    expect(spent).toEqual({ extractive: true, done: [], deferred: [], unstarted: targets(['a', 'b']) });
    expect(w.started).toEqual(['c']);
  });

  it('on a worker with a model provider does nothing and hands every job back', async () => {
    const w = world(['a']);
    const { prepareTargetsExtractive } = createExtractivePreparationActivities({ provider: () => 'openai', ...w.deps });
    expect(await prepareTargetsExtractive({ jobs: targets(['a']), stages: [...full], concurrency: 2, budgetMs: 60_000 })).toEqual({ extractive: false, done: [], deferred: [], unstarted: targets(['a']) });
    expect(w.started).toEqual([]);
  });

  it('a cancelled call finishes the job in hand, takes no other, and fails as cancelled', async () => {
    const w = world(['a', 'b', 'c']);
    const env = new MockActivityEnvironment();
    const deps = { ...w.deps, steps: () => ({ ...w.deps.steps(), tailorResume: async (i: { jobKey: string }) => (env.cancel('CANCELLED'), w.of(i.jobKey).steps.tailorResume(i)) }) };
    const { prepareTargetsExtractive } = createExtractivePreparationActivities({ provider: () => 'extractive', ...deps });
    await expect(env.run(prepareTargetsExtractive, { jobs: targets(['a', 'b', 'c']), stages: [...full], concurrency: 1, budgetMs: 60_000 })).rejects.toThrow();
    expect(w.started).toEqual(['a']);
    expect(w.of('a').state.stage).toBe('prepared');
  });
});
