import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { JobRepository, PreparationBatchRepository, PreparationRepository, type ObservedPosting } from '@jobctrl/shared/jobs';
import { SpendLedgerRepository } from '@jobctrl/shared/llm';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { createPreparationActivities, type PreparationActivityDeps, type RunProgressRecorder } from './preparation.activities';

const dbs = tempDbDir('prep-activities');
afterAll(() => dbs.cleanup());

function posting(key: string): ObservedPosting {
  return {
    jobKey: key, idempotencyKey: `v1-${key}`, contentKey: `c-${key}`, canonicalUrl: null, sourceId: 's', sourceKind: 'greenhouse', externalId: key,
    title: 'Engineer', company: 'Acme', location: null, remote: null, url: `https://jobs.test/${key}`, applyUrl: null,
    descriptionHtml: null, descriptionText: 'TypeScript', postedAt: null, salaryText: null, employmentType: null, tags: [],
  };
}

async function world(settings: Partial<ReturnType<PreparationActivityDeps['settings']>> = {}, opts: { startPreparation?: PreparationActivityDeps['startPreparation'] } = {}) {
  const databasePath = dbs.file('prep');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  const jobs = new JobRepository(uow);
  const prep = new PreparationRepository(uow);
  // The run registry belongs to the runs feature; the activities see it through its port.
  const shown = new Map<string, { progress?: unknown; blocked: string | null }>();
  const runs: RunProgressRecorder = {
    recordPreparationProgress: async (runId, progress) => void shown.set(runId, { ...(shown.get(runId) ?? { blocked: null }), progress }),
    setBlocked: async (runId, reason) => void shown.set(runId, { ...(shown.get(runId) ?? {}), blocked: reason }),
  };
  const ledger = new SpendLedgerRepository(uow);
  const profiles = new ProfileRepository(uow);
  await jobs.recordObservations('run-a', 'g', [posting('a'), posting('b')]);
  await jobs.recordObservations('run-b', 'g', [posting('c')]);
  for (const key of ['a', 'b', 'c']) await jobs.recordEnrichment(key, { status: 'enriched' });
  const started: Array<{ key: string; mode: string; stages?: string[]; notify?: string; provider?: string }> = [];
  const woken: string[] = [];
  const closed = new Set<string>();
  // Executions by idempotency key with their owner (PREPARATION_OWNER_MEMO), as cancelOwned reads them.
  const owners = new Map<string, string>();
  const stopped: string[] = [];
  const live = { provider: 'openai', dailySpendCeilingUsd: 1, recoveryIdleMs: 60_000, ...settings };
  const activities = createPreparationActivities({
    prep,
    runs,
    batches: new PreparationBatchRepository(uow),
    ledger,
    settings: () => live,
    profileRevision: async () => (await profiles.get()).revision,
    startPreparation: opts.startPreparation ?? (async (input) => void started.push({ key: input.idempotencyKey, mode: input.mode, stages: input.stages, notify: input.notifyWorkflowId, provider: input.provider })),
    describePreparation: async (job) => ({ closed: closed.has(job.idempotencyKey), failed: false }),
    wakePaused: async (paused) => void woken.push(...paused.map((j) => j.jobKey)),
    cancelOwned: async (ownedBy, targets) =>
      targets.filter((t) => ownedBy.includes(owners.get(t.idempotencyKey) ?? '') && !closed.has(t.idempotencyKey)).map((t) => ({ jobKey: t.jobKey, workflowId: `prep-${t.idempotencyKey}` })),
    stopRunning: async (ids) => void stopped.push(...ids),
  });
  return { jobs, prep, shown, ledger, profiles, activities, started, woken, closed, owners, stopped, live };
}

describe('preparation control activities', () => {
  it('checkSpendBudget allows below the ceiling, refuses at it, and never stops the extractive provider', async () => {
    const w = await world();
    expect(await w.activities.checkSpendBudget({})).toMatchObject({ allowed: true, spentUsd: 0, ceilingUsd: 1 });
    await w.ledger.record({ provider: 'openai', model: 'm', lane: 'score', effort: 'medium', inputTokens: 1, outputTokens: 1, costUsd: 1, outcome: 'ok' });
    const at = await w.activities.checkSpendBudget({});
    expect(at).toMatchObject({ allowed: false, spentUsd: 1, ceilingUsd: 1 });
    expect(at.msUntilReset).toBeGreaterThan(0);
    w.live.provider = 'extractive';
    expect((await w.activities.checkSpendBudget({})).allowed).toBe(true);
    w.live.provider = 'openai';
    w.live.dailySpendCeilingUsd = 2;
    expect((await w.activities.checkSpendBudget({})).allowed).toBe(true);
  });

  it('selects a run’s pending jobs, a profile update’s stale ones, and only idle ones for recovery', async () => {
    const w = await world();
    const keys = async (input: Parameters<typeof w.activities.selectPreparationTargets>[0]) => (await w.activities.selectPreparationTargets(input)).map((t) => t.jobKey);
    expect(await keys({ scope: 'run', stages: ['score'], discoveryRunId: 'run-a' })).toEqual(['a', 'b']);
    expect(await keys({ scope: 'run', stages: ['tailor'] })).toEqual([]);
    await w.prep.recordScore('a', { score: 90, detail: {}, profileRevision: 0, threshold: 60 });
    await w.prep.recordScore('b', { score: 10, detail: {}, profileRevision: 0, threshold: 60 });
    expect(await keys({ scope: 'run', stages: ['tailor'] })).toEqual(['a']);
    const { revision } = await w.profiles.put(sampleProfile());
    expect(await keys({ scope: 'profile_update', stages: ['score', 'tailor', 'cover'], profileRevision: revision })).toEqual(['a', 'b', 'c']);
    // A full run covers its jobs scored against an older profile too (they are not final for it); a
    // score-only run leaves them (re-scoring would drop artifacts it cannot rebuild).
    expect(await keys({ scope: 'run', stages: ['score', 'tailor', 'cover'], discoveryRunId: 'run-a' })).toEqual(['a', 'b']);
    expect(await keys({ scope: 'run', stages: ['score'], discoveryRunId: 'run-a' })).toEqual([]);
    // Recovery takes only jobs untouched for the idle period (these were just written).
    expect(await keys({ scope: 'idle_recovery', stages: ['score', 'tailor', 'cover'] })).toEqual([]);
    w.live.recoveryIdleMs = -1_000;
    expect(await keys({ scope: 'idle_recovery', stages: ['score', 'tailor', 'cover'] })).toEqual(['a', 'b', 'c']);
  });

  it('starts each job with the batch’s stages, coordinator and the worker’s provider, and polls closed executions with the job’s stage', async () => {
    const w = await world();
    // It reports the provider it started them with: the batch skips its spend preflight for extractive ones.
    expect(await w.activities.startPreparations({ jobs: [{ jobKey: 'a', idempotencyKey: 'v1-a' }], stages: ['score'], notifyWorkflowId: 'pipeline-1' })).toEqual({ provider: 'openai' });
    await w.activities.startPreparations({ jobs: [{ jobKey: 'b', idempotencyKey: 'v1-b' }], stages: ['score', 'tailor', 'cover'], notifyWorkflowId: 'pipeline-1', spendRecheckSeconds: 5 });
    expect(w.started).toEqual([
      { key: 'v1-a', mode: 'score', stages: ['score'], notify: 'pipeline-1', provider: 'openai' },
      { key: 'v1-b', mode: 'full', stages: ['score', 'tailor', 'cover'], notify: 'pipeline-1', provider: 'openai' },
    ]);
    w.closed.add('v1-a');
    expect(await w.activities.pollPreparations({ jobs: [{ jobKey: 'a', idempotencyKey: 'v1-a' }, { jobKey: 'b', idempotencyKey: 'v1-b' }] })).toEqual([
      { jobKey: 'a', idempotencyKey: 'v1-a', closed: true, failed: false, stage: 'pending_score' },
      { jobKey: 'b', idempotencyKey: 'v1-b', closed: false, failed: false, stage: 'pending_score' },
    ]);
  });

  it('starts a call’s jobs together, and attempts every start before a failed one fails the call (its retry starts the rest again)', async () => {
    const began: string[] = [];
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const w = await world({}, {
      startPreparation: async ({ jobKey }) => {
        began.push(jobKey);
        if (jobKey === 'a') await gate; // a slow round trip to the server
        if (jobKey === 'b') throw new Error('start of b refused');
      },
    });
    const jobs = ['a', 'b', 'c'].map((k) => ({ jobKey: k, idempotencyKey: `v1-${k}` }));
    const call = w.activities.startPreparations({ jobs, stages: ['score'], notifyWorkflowId: 'pipeline-1' });
    let settled = false;
    void call.catch(() => undefined).finally(() => (settled = true));
    await new Promise((r) => setImmediate(r));
    // All three went out while a's was still waiting; the call waits for a's before it reports.
    expect(began).toEqual(['a', 'b', 'c']);
    expect(settled).toBe(false);
    openGate();
    await expect(call).rejects.toThrow('start of b refused');
  });

  it('freezes a batch’s selection once and pages through it; a retry gets the same selection; release drops it', async () => {
    const w = await world();
    const selection = { scope: 'run' as const, stages: ['score' as const], batchId: 'b1' };
    expect(await w.activities.freezePreparationTargets(selection)).toEqual({ selected: 3 });
    // A job that stops being pending after the freeze does not change the frozen selection.
    await w.prep.recordScore('a', { score: 10, detail: {}, profileRevision: 0, threshold: 60 });
    expect(await w.activities.freezePreparationTargets(selection)).toEqual({ selected: 3 });
    const first = await w.activities.readPreparationTargets({ batchId: 'b1', afterSeq: 0, limit: 2 });
    expect(first.map((t) => [t.seq, t.jobKey])).toEqual([[1, 'a'], [2, 'b']]);
    const rest = await w.activities.readPreparationTargets({ batchId: 'b1', afterSeq: 2, limit: 2 });
    expect(rest.map((t) => [t.seq, t.jobKey, t.idempotencyKey])).toEqual([[3, 'c', 'v1-c']]);
    expect(await w.activities.readPreparationTargets({ batchId: 'b1', afterSeq: 3, limit: 2 })).toEqual([]);
    await w.activities.releasePreparationTargets({ batchId: 'b1' });
    expect(await w.activities.readPreparationTargets({ batchId: 'b1', afterSeq: 0, limit: 10 })).toEqual([]);
  });

  it('reports batch progress to the run registry', async () => {
    const w = await world();
    await w.activities.recordPreparationProgress({ runId: 'r1', selected: 3, completed: 2, failed: 0 });
    expect(w.shown.get('r1')?.progress).toEqual({ selected: 3, completed: 2, failed: 0 });
  });

  it('shows the run’s spend pause, and clearing it wakes the paused jobs', async () => {
    const w = await world();
    await w.prep.setPrepStatus('b', 'spend_ceiling_reached');
    await w.activities.setRunBlocked({ runId: 'r1', blocked: true });
    expect(w.shown.get('r1')?.blocked).toBe('spend_ceiling_reached');
    expect(w.woken).toEqual([]);
    await w.activities.setRunBlocked({ runId: 'r1', blocked: false });
    expect(w.shown.get('r1')?.blocked).toBeNull();
    expect(w.woken).toEqual(['b']);
  });

  it('cancelPreparation cancels the running executions its owner started (the run’s members and the given jobs), stops them here, and recovery leaves those jobs alone', async () => {
    const w = await world();
    // a, b: run-a's members; c: run-b's, given explicitly. a: started by this run; b: by another path;
    // c: started by this run but already closed.
    w.owners.set('v1-a', 'discover-run-a');
    w.owners.set('v1-b', 'pipeline-other');
    w.owners.set('v1-c', 'discover-run-a');
    w.closed.add('v1-c');
    const result = await w.activities.cancelPreparation({ owners: ['discover-run-a', 'pipeline-run-a'], discoveryRunId: 'run-a', jobs: [{ jobKey: 'c', idempotencyKey: 'v1-c' }] });
    expect(result).toEqual({ checked: 3, cancelled: 1 });
    expect(w.stopped).toEqual(['prep-v1-a']);
    expect((await w.jobs.get('a'))?.prepStatus).toBe('cancelled');
    // b was another path's execution (left running) but the run covered it: it waits, marked, like a.
    expect((await w.jobs.get('b'))?.prepStatus).toBe('cancelled');
    expect((await w.jobs.get('c'))?.prepStatus).toBe('cancelled');
    // Idle recovery would take all three; the cancelled run's jobs wait for a person (a run, a re-prepare).
    w.live.recoveryIdleMs = -1_000;
    expect((await w.activities.selectPreparationTargets({ scope: 'idle_recovery', stages: ['score', 'tailor', 'cover'] })).map((t) => t.jobKey)).toEqual([]);
    expect((await w.activities.selectPreparationTargets({ scope: 'run', stages: ['score'], discoveryRunId: 'run-a' })).map((t) => t.jobKey)).toEqual(['a', 'b']);
    // Its next stage write clears the mark.
    await w.prep.recordScore('a', { score: 10, detail: {}, profileRevision: 0, threshold: 60 });
    expect((await w.jobs.get('a'))?.prepStatus).toBeNull();
  });
});
