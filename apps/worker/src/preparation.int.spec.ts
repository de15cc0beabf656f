import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, WorkerOptions } from '@temporalio/worker';
import type { JobPipelineInput, JobPipelineResult, PipelineStage } from '@jobctrl/pipeline/contracts';
import {
  PIPELINE_WORKFLOW_TYPE,
  pipelineWorkflowId,
  PREP_BATCH_OVERLAP_PATCH,
  PREP_BATCH_INLINE_EXTRACTIVE_PATCH,
  PREP_BATCH_SPEND_FREE_PATCH,
  PREP_BATCH_THROTTLED_PROGRESS_PATCH,
  PREP_COMPENSATION_PATCH,
  PREP_EXTRACTIVE_CLASSIFY_PATCH,
  PREP_EXTRACTIVE_PATCH,
  PREP_MODEL_ONE_ACTIVITY_PATCH,
  PREP_STAGED_PATCH,
  PREPARATION_WORKFLOW_TYPE,
  prepWorkflowId,
} from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { PreparationRepository, type JobRecord, type ObservedPosting } from '@jobctrl/shared/jobs';
import { PipelineRunRepository } from '@jobctrl/runs';
import { SpendLedgerRepository } from '@jobctrl/shared/llm';
import { startLlmSimulator, type LlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workflowsEntry } from './create-worker';
import { PreparationRecovery, RECOVERY_WORKFLOW_ID, startPreparationWith } from '@jobctrl/runs/worker';
import { allJobs, setupPreparationWorld, startPipeline as startPipelineRun, type PreparationWorldOptions } from './test-support/preparation-world.fixture';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { createPipelineResponder } from './test-support/llm-responder';
import { waitFor } from '@jobctrl/tools/processes';
import { scheduledActivityTypes } from './test-support/worker-app.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

const setup = (opts: PreparationWorldOptions) => setupPreparationWorld(suite, opts);
const startPipeline = (uow: UnitOfWorkFactory, taskQueue: string, stages: PipelineStage[], extra: Partial<JobPipelineInput> = {}) => startPipelineRun(suite, uow, taskQueue, stages, extra);

/**
 * Until `probe` returns a truthy value. The wait follows progress: it lasts while the jobs move
 * (their stages and preparation states) and fails after `idleTimeoutMs` without any movement.
 */
async function until<T>(what: string, jobs: Parameters<typeof allJobs>[0], probe: () => Promise<T | undefined | false>, idleTimeoutMs = 60_000): Promise<T> {
  return waitFor(
    async () => {
      const value = await probe();
      if (value) return { done: value };
      return { progress: (await allJobs(jobs)).map((j) => `${j.stage}/${j.prepStatus}`).sort() };
    },
    { what, idleTimeoutMs, intervalMs: 200 },
  );
}

/** A posting the sample profile fits, stored directly (no board), numbered `n`. */
function fittingPosting(jobKey: string, idempotencyKey: string, n: number): ObservedPosting {
  return {
    jobKey, idempotencyKey, contentKey: null, canonicalUrl: null, sourceId: 'src', sourceKind: 'greenhouse', externalId: String(n),
    title: n === 1 ? 'Backend Engineer' : `Backend Engineer ${n}`, company: 'Globex', location: null, remote: true, url: `https://jobs.test/${n}`, applyUrl: null,
    descriptionHtml: null, descriptionText: 'TypeScript, Kafka and PostgreSQL.', postedAt: null, salaryText: null, employmentType: null, tags: [],
  };
}

/** A posting the sample profile does not fit (it stays scored), numbered `n`. */
function designPosting(jobKey: string, idempotencyKey: string, n: number): ObservedPosting {
  return { ...fittingPosting(jobKey, idempotencyKey, n), title: `Brand Designer ${n}`, descriptionText: 'Figma, illustration and print layout.' };
}

/** What preparation leaves on a job (its stage, score, artifacts and reviews), without clock readings. */
function preparedState(j: JobRecord) {
  const { jobKey, stage, score, scoreDetail, scoreProfileRevision, tailoredResume, coverLetter, coverReview, coverAttempts, prepStatus, preparedAt } = j;
  return { jobKey, stage, score, scoreDetail, scoreProfileRevision, tailoredResume, coverLetter, coverReview, coverAttempts, prepStatus, prepared: preparedAt !== null };
}

/** A workflow bundle of a test-support module (old workflow versions, for the replay tests). */
const testSupportBundle = (file: string) => bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'test-support', file), webpackConfigHook: workflowsEntry().webpackConfigHook as never });

type History = Awaited<ReturnType<ReturnType<typeof suite.client.workflow.getHandle>['fetchHistory']>>;

/** The patch markers a history recorded, in order. */
const patches = (h: History) =>
  (h.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').map((e) => {
    const data = e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data;
    return (JSON.parse(Buffer.from(data as Uint8Array).toString('utf8')) as { id: string }).id;
  });

/** Per workflow task (its completed event id), the activity types it scheduled. */
function scheduledPerTask(h: History): string[][] {
  const byTask = new Map<string, string[]>();
  for (const e of h.events ?? []) {
    const a = e.activityTaskScheduledEventAttributes;
    if (!a) continue;
    const task = String(a.workflowTaskCompletedEventId);
    byTask.set(task, [...(byTask.get(task) ?? []), a.activityType?.name ?? '?']);
  }
  return [...byTask.values()];
}

describe('Preparation against the board simulator', () => {
  it('extractive: a discover → score → tailor → cover run scores every job; those above the threshold are tailored with an accepted, reviewed cover letter', async () => {
    const s = await setup({ jobsPerBoard: 8 });
    try {
      await s.jw.worker.runUntil(async () => {
        // A small history limit makes the batch continue as new mid-way: one run, the same outcome.
        const { runId, handle } = await startPipeline(s.uow, s.taskQueue, ['discover', 'score', 'tailor', 'cover'], { batchHistoryLimit: 15, internalConcurrency: 1 });
        const result = (await handle.result()) as JobPipelineResult;
        expect(result.discover?.familiesFailed).toEqual([]);
        expect(result.preparation).toMatchObject({ failed: 0 });
        expect(result.preparation?.completed).toBe(result.preparation?.selected);
        expect((await new PipelineRunRepository(s.uow).get(runId))?.preparation).toEqual({ selected: result.preparation?.selected, completed: result.preparation?.completed, failed: 0 });
        // Visibility is eventually consistent: wait until it lists the closed chain.
        const executions = await until('the pipeline executions to be listed', s.jobs, async () => {
          const statuses: string[] = [];
          for await (const wf of suite.client.workflow.list({ query: `WorkflowId = '${pipelineWorkflowId(runId)}'` })) statuses.push(wf.status.name);
          return statuses.includes('COMPLETED') && statuses.length > 1 && statuses;
        }, 15_000);
        expect(executions.filter((status) => status === 'CONTINUED_AS_NEW').length).toBeGreaterThan(0);
        expect(executions.filter((status) => status === 'COMPLETED')).toHaveLength(1);
        const jobs = await allJobs(s.jobs);
        expect(jobs.length).toBeGreaterThan(0);
        expect(result.preparation?.failed).toBe(0);
        for (const job of jobs) {
          expect(job.score).not.toBeNull();
          if ((job.score as number) >= s.live.tailorScoreThreshold) {
            expect(job.stage).toBe('prepared');
            expect(job.tailoredResume).toMatchObject({ method: 'extractive', markdown: expect.stringContaining('Dana Whitfield') });
            expect(job.coverLetter).toMatchObject({ method: 'extractive', text: expect.stringContaining(job.company) });
            expect(job.coverReview).toMatchObject({ accepted: true, outcome: 'accepted', verdicts: { factual: { passed: true }, quality: { passed: true } } });
          } else {
            expect(job.stage).toBe('scored');
            expect(job.tailoredResume).toBeNull();
          }
        }
        // The board's engineering roles fit the sample profile; its design and product roles do not.
        expect(jobs.some((j) => j.stage === 'prepared')).toBe(true);
        expect(jobs.some((j) => j.stage === 'scored')).toBe(true);
        // Extractive work is free: nothing is charged.
        expect((await new SpendLedgerRepository(s.uow).summary()).calls).toBe(0);
      });
    } finally {
      await s.cleanup();
    }
  });

  it('a priced OpenAI-compatible provider and a tiny ceiling: the run pauses in spend_ceiling_reached, spend stays within one call, and it continues once the ceiling is raised', async () => {
    // ~$0.01 per score call (prompt tokens at $10/Mtok); everything scores 20, below the threshold.
    const sim: LlmSimulator = await startLlmSimulator({ latencyMs: 30, respond: () => ({ score: 20, rationale: 'Partial fit.', matched: [], missing: [] }) });
    const s = await setup({
      jobsPerBoard: 6,
      llm: { provider: 'openai', model: 'priced', baseUrl: sim.url, prices: { priced: { input_usd_per_mtok: 10, output_usd_per_mtok: 10 } }, timeoutMs: 10_000 },
      live: { dailySpendCeilingUsd: 0.03 },
    });
    try {
      await s.jw.worker.runUntil(async () => {
        const { runId, handle } = await startPipeline(s.uow, s.taskQueue, ['discover', 'score']);
        const registry = new PipelineRunRepository(s.uow);
        await until('the run to pause at the ceiling', s.jobs, async () => (await registry.get(runId))?.blockedReason === 'spend_ceiling_reached');
        const ledger = new SpendLedgerRepository(s.uow);
        const paused = await ledger.summary();
        const perCall = paused.totalUsd / paused.calls;
        expect(paused.totalUsd).toBeGreaterThanOrEqual(s.live.dailySpendCeilingUsd);
        expect(paused.totalUsd).toBeLessThanOrEqual(s.live.dailySpendCeilingUsd + perCall * 1.01);
        const waiting = await until('a job waiting for budget', s.jobs, async () => {
          const jobs = await allJobs(s.jobs);
          return jobs.some((j) => j.prepStatus === 'spend_ceiling_reached') && jobs;
        });
        expect(waiting.filter((j) => j.stage === 'pending_score').length).toBeGreaterThan(0);
        // Paused, not failed: no model call is made while the ceiling holds.
        const callsWhilePaused = sim.requests.length;
        await new Promise((r) => setTimeout(r, 1500));
        expect(sim.requests.length).toBe(callsWhilePaused);

        s.live.dailySpendCeilingUsd = 100;
        const result = (await handle.result()) as JobPipelineResult;
        expect(result.preparation?.failed).toBe(0);
        const jobs = await allJobs(s.jobs);
        expect(jobs.every((j) => j.stage === 'scored' && j.prepStatus === null)).toBe(true);
        expect((await registry.get(runId))?.blockedReason).toBeNull();
        const final = await ledger.summary();
        expect(final.calls).toBe(sim.requests.length);
        expect(final.byLane.score).toBeCloseTo(final.totalUsd);
      });
    } finally {
      await s.cleanup();
      await sim.close();
    }
  }, 180_000);

  it('a profile update re-scores jobs scored against the old profile, and idle recovery finishes jobs left in a pending stage', async () => {
    const s = await setup({ jobsPerBoard: 4 });
    try {
      await s.jw.worker.runUntil(async () => {
        const first = await startPipeline(s.uow, s.taskQueue, ['discover', 'score']);
        await first.handle.result();
        const before = await allJobs(s.jobs);
        expect(before.every((j) => j.scoreProfileRevision === 1)).toBe(true);
        // Score-only left the good fits waiting for tailoring.
        const waiting = before.filter((j) => j.stage === 'pending_tailor');
        expect(waiting.length).toBeGreaterThan(0);

        // Idle recovery: nothing ran for the idle period, so the waiting jobs are started again.
        s.live.recoveryIdleMs = 0;
        const recovery = new PreparationRecovery({
          client: suite.client,
          taskQueue: s.taskQueue,
          gauge: s.jw.gauge,
          prep: new PreparationRepository(s.uow),
          settings: () => ({ recoveryIdleMs: 0, internalConcurrency: 2 }),
          profileRevision: async () => (await new ProfileRepository(s.uow).get()).revision,
          log: () => undefined,
        });
        expect(await recovery.tick(Date.now() + 1)).toBe(true);
        await suite.client.workflow.getHandle(RECOVERY_WORKFLOW_ID).result();
        for (const job of waiting) expect((await s.jobs.get(job.jobKey))?.stage).toBe('prepared');
        expect(await recovery.tick(Date.now() + 1)).toBe(false); // nothing left to recover

        // A new profile revision: the batch of a profile update re-scores every job against it.
        const narrower = { ...sampleProfile(), skills: ['Figma'] };
        const { revision } = await new ProfileRepository(s.uow).put(narrower);
        const runId = randomUUID();
        const input: JobPipelineInput = { runId, stages: ['score', 'tailor', 'cover'], scope: 'profile_update', internalConcurrency: 2, profileRevision: revision };
        const result = (await suite.client.workflow.execute(PIPELINE_WORKFLOW_TYPE, { taskQueue: s.taskQueue, workflowId: pipelineWorkflowId(runId), args: [input] })) as JobPipelineResult;
        expect(result.preparation?.selected).toBe(before.length);
        const after = await allJobs(s.jobs);
        expect(after.every((j) => j.scoreProfileRevision === revision)).toBe(true);
      });
    } finally {
      await s.cleanup();
    }
  }, 180_000);

  it("the next discovery run's straggler sweep carries scored-but-not-tailored jobs on to a cover letter", async () => {
    const s = await setup({ jobsPerBoard: 3 });
    try {
      await s.jw.worker.runUntil(async () => {
        await (await startPipeline(s.uow, s.taskQueue, ['discover', 'score'])).handle.result();
        const waiting = (await allJobs(s.jobs)).filter((j) => j.stage === 'pending_tailor');
        expect(waiting.length).toBeGreaterThan(0);
        const runId = randomUUID();
        await suite.client.workflow.execute('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: `discover-${runId}`, args: [{ runId }] });
        await until('the stragglers to be prepared', s.jobs, async () => {
          const stages = await Promise.all(waiting.map(async (j) => (await s.jobs.get(j.jobKey))?.stage));
          return stages.every((stage) => stage === 'prepared');
        });
      });
    } finally {
      await s.cleanup();
    }
  }, 180_000);

  it('replays a score-only history recorded before the staged-preparation marker, and one recorded with it', async () => {
    const v0 = await testSupportBundle('prep-v0.workflows.ts');
    const prepare = async (bundle: WorkerOptions['workflowBundle']) => {
      const s = await setup({ jobsPerBoard: 1, workflowBundle: bundle });
      try {
        await s.jobs.recordObservations('r1', 'test', [fittingPosting('j1', `v1-${s.taskQueue}`, 1)]);
        await s.jobs.recordEnrichment('j1', { status: 'enriched' });
        const workflowId = prepWorkflowId(`v1-${s.taskQueue}`);
        await s.jw.worker.runUntil(
          suite.client.workflow.execute(PREPARATION_WORKFLOW_TYPE, { taskQueue: s.taskQueue, workflowId, args: [{ jobKey: 'j1', idempotencyKey: `v1-${s.taskQueue}`, mode: 'full' }] }),
        );
        return await suite.client.workflow.getHandle(workflowId).fetchHistory();
      } finally {
        await s.cleanup();
      }
    };
    const oldHistory = await prepare(v0);
    expect(patches(oldHistory)).toEqual([]);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    const history = await prepare(suite.bundle);
    // A full preparation started without a captured provider: its stages in one activity.
    expect(patches(history)).toEqual([PREP_STAGED_PATCH, PREP_MODEL_ONE_ACTIVITY_PATCH]);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
    await expect(Worker.runReplayHistory({ workflowBundle: v0 }, history)).rejects.toThrow();
  }, 180_000);

  it('a batch writes its progress beside the starts that refill its lanes (one round trip, not two), and replays histories recorded before that marker', async () => {
    const v1 = await testSupportBundle('batch-v1.workflows.ts');
    // Score-only over four stored jobs, one lane: every finished job makes room for the next.
    const record = (bundle: WorkerOptions['workflowBundle']) => recordScoreBatch(bundle, 'overlap', { batchProgressIntervalMs: 0 });
    const together = (h: History) => scheduledPerTask(h).filter((types) => types.includes('recordPreparationProgress') && types.includes('startPreparations')).length;

    const oldHistory = await record(v1);
    expect(patches(oldHistory)).not.toContain(PREP_BATCH_OVERLAP_PATCH);
    expect(together(oldHistory)).toBe(0);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    const history = await record(suite.bundle);
    expect(patches(history)).toContain(PREP_BATCH_OVERLAP_PATCH);
    expect(together(history)).toBeGreaterThan(0);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
    await expect(Worker.runReplayHistory({ workflowBundle: v1 }, history)).rejects.toThrow();
  }, 180_000);

  it('a batch whose jobs keep finishing writes its progress at most once per interval, always its last counts, and replays histories recorded before that marker', async () => {
    const v2 = await testSupportBundle('batch-v2.workflows.ts');
    const progressWrites = (h: History) => scheduledPerTask(h).flat().filter((type) => type === 'recordPreparationProgress').length;

    // Before: a write per finished job (and the one after the selection).
    const oldHistory = await recordScoreBatch(v2, 'throttle', { batchProgressIntervalMs: 3_600_000 });
    expect(patches(oldHistory)).not.toContain(PREP_BATCH_THROTTLED_PROGRESS_PATCH);
    expect(progressWrites(oldHistory)).toBe(5);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    // An interval longer than the batch: the write after the selection and the last counts only.
    const history = await recordScoreBatch(suite.bundle, 'throttle', { batchProgressIntervalMs: 3_600_000 });
    expect(patches(history)).toContain(PREP_BATCH_THROTTLED_PROGRESS_PATCH);
    expect(progressWrites(history)).toBe(2);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
    await expect(Worker.runReplayHistory({ workflowBundle: v2 }, history)).rejects.toThrow();
  }, 180_000);

  it('a batch whose jobs were started with the extractive provider runs the spend preflight once, not every round, and replays histories recorded before that marker', async () => {
    const v3 = await testSupportBundle('batch-v3.workflows.ts');
    // The batch's local activities that are spend preflights (its lifecycle writes are local too).
    const preflights = (h: History) =>
      (h.events ?? []).filter((e) => {
        const m = e.markerRecordedEventAttributes;
        if (m?.markerName !== 'core_local_activity') return false;
        const payloads = Object.values(m.details ?? {}).flatMap((d) => d.payloads ?? []);
        return payloads.some((p) => Buffer.from(p.data as Uint8Array).toString('utf8').includes('checkSpendBudget'));
      }).length;

    // Before: one preflight per round (four jobs, one lane: at least a round per job).
    const oldHistory = await recordScoreBatch(v3, 'spendfree', {});
    expect(patches(oldHistory)).not.toContain(PREP_BATCH_SPEND_FREE_PATCH);
    expect(preflights(oldHistory)).toBeGreaterThanOrEqual(4);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    // After: the first round's only; the starts reported the extractive provider.
    const history = await recordScoreBatch(suite.bundle, 'spendfree', {});
    expect(patches(history)).toContain(PREP_BATCH_SPEND_FREE_PATCH);
    expect(preflights(history)).toBe(1);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
    await expect(Worker.runReplayHistory({ workflowBundle: v3 }, history)).rejects.toThrow();
  }, 180_000);

  /** A score-only batch over four stored jobs, one lane; checks its result and the run's last progress, returns its history. */
  async function recordScoreBatch(bundle: WorkerOptions['workflowBundle'], name: string, extra: Partial<JobPipelineInput>): Promise<History> {
    const s = await setup({ jobsPerBoard: 1, workflowBundle: bundle });
    try {
      const keys = [1, 2, 3, 4].map((i) => ({ jobKey: `j${i}`, idempotencyKey: `${name}-${i}-${s.taskQueue}` }));
      await s.jobs.recordObservations('r1', 'test', keys.map(({ jobKey, idempotencyKey }, i) => fittingPosting(jobKey, idempotencyKey, i + 1)));
      for (const { jobKey } of keys) await s.jobs.recordEnrichment(jobKey, { status: 'enriched' });
      return await s.jw.worker.runUntil(async () => {
        const { runId, handle } = await startPipeline(s.uow, s.taskQueue, ['score'], { internalConcurrency: 1, ...extra });
        const result = (await handle.result()) as JobPipelineResult;
        expect(result.preparation).toMatchObject({ selected: 4, completed: 4, failed: 0 });
        expect((await new PipelineRunRepository(s.uow).get(runId))?.preparation).toEqual({ selected: 4, completed: 4, failed: 0 });
        return handle.fetchHistory();
      });
    } finally {
      await s.cleanup();
    }
  }

  it('an extractive profile update prepares its jobs inside the batch (no workflow per job), earlier each in one activity of its own workflow, leaving exactly the stages and artifacts of the stage-by-stage path; all three histories replay', async () => {
    const v1 = await testSupportBundle('prep-v1.workflows.ts');
    const v4 = await testSupportBundle('batch-v4.workflows.ts');
    // Six stored jobs scored against revision 1; the update (revision 2) re-prepares all of them, two
    // at a time: the fitting ones to prepared (tailored resume, reviewed cover letter), the others to scored.
    const record = async (bundle: WorkerOptions['workflowBundle']) => {
      const s = await setup({ jobsPerBoard: 1, workflowBundle: bundle });
      try {
        const keys = [1, 2, 3, 4, 5, 6].map((i) => ({ jobKey: `j${i}`, idempotencyKey: `rescore-${i}-${s.taskQueue}` }));
        await s.jobs.recordObservations('r1', 'test', keys.map(({ jobKey, idempotencyKey }, i) => (i % 3 === 2 ? designPosting : fittingPosting)(jobKey, idempotencyKey, i + 1)));
        const prep = new PreparationRepository(s.uow);
        for (const { jobKey } of keys) {
          await s.jobs.recordEnrichment(jobKey, { status: 'enriched' });
          await prep.recordScore(jobKey, { score: 0, detail: { seeded: true }, profileRevision: 1, threshold: s.live.tailorScoreThreshold }, await prep.fenceOf(jobKey));
        }
        const { revision } = await new ProfileRepository(s.uow).put({ ...sampleProfile(), skills: [...sampleProfile().skills, 'Rust'] });
        return await s.jw.worker.runUntil(async () => {
          const { runId, handle } = await startPipeline(s.uow, s.taskQueue, ['score', 'tailor', 'cover'], { scope: 'profile_update', profileRevision: revision, internalConcurrency: 2 });
          const result = (await handle.result()) as JobPipelineResult;
          expect(result.preparation).toMatchObject({ selected: 6, completed: 6, failed: 0 });
          expect((await new PipelineRunRepository(s.uow).get(runId))?.preparation).toEqual({ selected: 6, completed: 6, failed: 0 });
          // The jobs' own workflows, where the batch started any.
          const histories = await Promise.all(keys.map(({ idempotencyKey }) => suite.client.workflow.getHandle(prepWorkflowId(idempotencyKey)).fetchHistory().catch(() => undefined)));
          return { jobs: (await allJobs(s.jobs)).map(preparedState), histories, batch: await handle.fetchHistory() };
        });
      } finally {
        await s.cleanup();
      }
    };
    const activities = (h: History) => scheduledActivityTypes(h.events ?? []);
    const localActivities = (h: History) => (h.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
    const signalsSent = (h: History) => (h.events ?? []).filter((e) => e.signalExternalWorkflowExecutionInitiatedEventAttributes).length;
    const present = (hs: Array<History | undefined>) => hs.filter((h): h is History => h !== undefined);

    const old = await record(v1);
    expect(old.jobs.filter((j) => j.stage === 'prepared').length).toBeGreaterThan(0);
    expect(old.jobs.filter((j) => j.stage === 'scored').length).toBeGreaterThan(0);
    expect(present(old.histories)).toHaveLength(6);
    for (const h of present(old.histories)) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH]);
      expect(activities(h)[0]).toBe('scoreJob');
      expect(localActivities(h)).toBe(activities(h).length); // a spend preflight before each stage
      expect(signalsSent(h)).toBe(1); // the done signal to the batch, from the workflow
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }

    // A workflow per job, each job's stages in one activity.
    const perJob = await record(v4);
    expect(perJob.jobs).toEqual(old.jobs);
    expect(patches(perJob.batch)).not.toContain(PREP_BATCH_INLINE_EXTRACTIVE_PATCH);
    expect(present(perJob.histories)).toHaveLength(6);
    for (const h of present(perJob.histories)) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH, PREP_EXTRACTIVE_PATCH]);
      expect(activities(h)).toEqual(['prepareJobExtractive']);
      expect(localActivities(h)).toBe(0);
      expect(signalsSent(h)).toBe(0); // the activity signalled the batch itself
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }
    await expect(Worker.runReplayHistory({ workflowBundle: v1 }, present(perJob.histories)[0])).rejects.toThrow();
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, perJob.batch);

    // Now: the batch prepares them itself, two at a time in one call; no workflow per job.
    const now = await record(suite.bundle);
    expect(now.jobs).toEqual(old.jobs);
    expect(patches(now.batch)).toContain(PREP_BATCH_INLINE_EXTRACTIVE_PATCH);
    expect(present(now.histories)).toHaveLength(0);
    expect(activities(now.batch).filter((a) => a === 'prepareTargetsExtractive')).toHaveLength(1);
    expect(activities(now.batch)).not.toContain('startPreparations');
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, now.batch);
    await expect(Worker.runReplayHistory({ workflowBundle: v4 }, now.batch)).rejects.toThrow();
  }, 300_000);
  it("an extractive job started score-only (discovery's handoff) has its pay classified inside its one activity — the same pay, stage and score as with a classification activity of its own — and replays histories recorded before that marker", async () => {
    const v4 = await testSupportBundle('prep-v4.workflows.ts');
    // Two stored, enriched jobs that publish their pay, each started as discovery's handoff starts it:
    // score-only, with the worker's (extractive) provider captured.
    const record = async (bundle: WorkerOptions['workflowBundle']) => {
      const s = await setup({ jobsPerBoard: 1, workflowBundle: bundle });
      try {
        const keys = [1, 2].map((i) => ({ jobKey: `j${i}`, idempotencyKey: `classify-${i}-${s.taskQueue}` }));
        await s.jobs.recordObservations('r1', 'test', keys.map(({ jobKey, idempotencyKey }, i) => ({ ...fittingPosting(jobKey, idempotencyKey, i + 1), salaryText: i === 0 ? '$150,000 - $180,000 per year' : '$70 - $85 per hour' })));
        for (const { jobKey } of keys) await s.jobs.recordEnrichment(jobKey, { status: 'enriched' });
        return await s.jw.worker.runUntil(async () => {
          for (const job of keys) await startPreparationWith(suite.client, s.taskQueue, job, 'score', { provider: 'extractive' });
          const histories: History[] = [];
          for (const { idempotencyKey } of keys) {
            const handle = suite.client.workflow.getHandle(prepWorkflowId(idempotencyKey));
            await handle.result();
            histories.push(await handle.fetchHistory());
          }
          return { jobs: (await allJobs(s.jobs)).map((j) => ({ ...preparedState(j), pay: j.compensation?.summary ?? null })), histories };
        });
      } finally {
        await s.cleanup();
      }
    };

    const old = await record(v4);
    expect(old.jobs.map((j) => j.stage)).toEqual(['pending_tailor', 'pending_tailor']);
    expect(old.jobs.every((j) => j.pay !== null)).toBe(true);
    for (const h of old.histories) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH, PREP_COMPENSATION_PATCH, PREP_EXTRACTIVE_PATCH]);
      expect(scheduledActivities(h)).toEqual(['classifyJobCompensation', 'prepareJobExtractive']);
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }

    const now = await record(suite.bundle);
    expect(now.jobs).toEqual(old.jobs);
    for (const h of now.histories) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH, PREP_COMPENSATION_PATCH, PREP_EXTRACTIVE_CLASSIFY_PATCH, PREP_EXTRACTIVE_PATCH]);
      expect(scheduledActivities(h)).toEqual(['prepareJobExtractive']);
      expect(localActivityCount(h)).toBe(0);
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }
    await expect(Worker.runReplayHistory({ workflowBundle: v4 }, now.histories[0])).rejects.toThrow();
  }, 240_000);

  /** Five stored jobs, prepared Score → Tailor → Cover by a priced model behind the LLM simulator, two at a time. */
  async function recordModelBatch(bundle: WorkerOptions['workflowBundle'], name: string, live: { dailySpendCeilingUsd: number }, duringRun?: (s: Awaited<ReturnType<typeof setup>>, sim: LlmSimulator, runId: string) => Promise<void>) {
    const sim = await startLlmSimulator({ latencyMs: 20, respond: createPipelineResponder() });
    const s = await setup({
      jobsPerBoard: 1,
      workflowBundle: bundle,
      llm: { provider: 'openai', model: 'priced', baseUrl: sim.url, prices: { priced: { input_usd_per_mtok: 10, output_usd_per_mtok: 10 } }, timeoutMs: 10_000 },
      live,
    });
    try {
      const keys = [1, 2, 3, 4, 5].map((i) => ({ jobKey: `j${i}`, idempotencyKey: `${name}-${i}-${s.taskQueue}` }));
      await s.jobs.recordObservations('r1', 'test', keys.map(({ jobKey, idempotencyKey }, i) => fittingPosting(jobKey, idempotencyKey, i + 1)));
      for (const { jobKey } of keys) await s.jobs.recordEnrichment(jobKey, { status: 'enriched' });
      return await s.jw.worker.runUntil(async () => {
        const { runId, handle } = await startPipeline(s.uow, s.taskQueue, ['score', 'tailor', 'cover'], { internalConcurrency: 2 });
        if (duringRun) await duringRun(s, sim, runId);
        const result = (await handle.result()) as JobPipelineResult;
        expect(result.preparation).toMatchObject({ selected: 5, completed: 5, failed: 0 });
        const histories = await Promise.all(keys.map(({ idempotencyKey }) => suite.client.workflow.getHandle(prepWorkflowId(idempotencyKey)).fetchHistory()));
        const ledger = await new SpendLedgerRepository(s.uow).summary();
        return { jobs: (await allJobs(s.jobs)).map(preparedState), histories, calls: sim.requests.length, ledger };
      });
    } finally {
      await s.cleanup();
      await sim.close();
    }
  }

  const scheduledActivities = (h: History) => scheduledActivityTypes(h.events ?? []);
  const localActivityCount = (h: History) => (h.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;

  it('with a model provider a full preparation runs its stages in one activity behind one spend preflight, leaving exactly the stages, artifacts and spend of the stage-by-stage path, and replays histories recorded before that marker', async () => {
    const v3 = await testSupportBundle('prep-v3.workflows.ts');
    const old = await recordModelBatch(v3, 'staged', { dailySpendCeilingUsd: 100 });
    expect(old.jobs.filter((j) => j.stage === 'prepared').length).toBe(5); // the simulated model scores every job 80
    for (const h of old.histories) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH]);
      expect(localActivityCount(h)).toBe(scheduledActivities(h).length); // a spend preflight before each stage
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }

    const now = await recordModelBatch(suite.bundle, 'whole', { dailySpendCeilingUsd: 100 });
    expect(now.jobs).toEqual(old.jobs);
    // The same model calls, each charged once.
    expect(now.calls).toBe(old.calls);
    expect(now.ledger.calls).toBe(now.calls);
    expect(now.ledger.totalUsd).toBeCloseTo(old.ledger.totalUsd, 9);
    for (const h of now.histories) {
      expect(patches(h)).toEqual([PREP_STAGED_PATCH, PREP_MODEL_ONE_ACTIVITY_PATCH]);
      expect(scheduledActivities(h)).toEqual(['prepareJobStages']);
      expect(localActivityCount(h)).toBe(1);
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, h);
    }
    await expect(Worker.runReplayHistory({ workflowBundle: v3 }, now.histories[0])).rejects.toThrow();
  }, 240_000);

  it('a full preparation in one activity stops at the spend ceiling between stages (spend within one call of it, the job paused, not failed) and resumes from the stage it reached once the ceiling is raised', async () => {
    let pausedSpend = 0;
    let perCall = 0;
    const run = await recordModelBatch(suite.bundle, 'ceiling', { dailySpendCeilingUsd: 0.02 }, async (s, sim, runId) => {
      const registry = new PipelineRunRepository(s.uow);
      await until('the run to pause at the ceiling', s.jobs, async () => (await registry.get(runId))?.blockedReason === 'spend_ceiling_reached');
      const waiting = await until('a job waiting for budget', s.jobs, async () => {
        const jobs = await allJobs(s.jobs);
        return jobs.some((j) => j.prepStatus === 'spend_ceiling_reached') && jobs;
      });
      // Paused past its first stage: the one activity stopped between stages, not before the job.
      expect(waiting.some((j) => j.prepStatus === 'spend_ceiling_reached' && j.stage !== 'pending_score')).toBe(true);
      const ledger = await new SpendLedgerRepository(s.uow).summary();
      pausedSpend = ledger.totalUsd;
      perCall = ledger.totalUsd / ledger.calls;
      const callsWhilePaused = sim.requests.length;
      await new Promise((r) => setTimeout(r, 1500));
      expect(sim.requests.length).toBe(callsWhilePaused);
      s.live.dailySpendCeilingUsd = 100;
    });
    expect(pausedSpend).toBeGreaterThanOrEqual(0.02);
    // Each call reserves twice its estimate, so a call is admitted only while the rest fits: at most one
    // call's cost (here at most a few times the mean) carries the day over.
    expect(pausedSpend).toBeLessThanOrEqual(0.02 + perCall * 4);
    expect(run.jobs.filter((j) => j.stage === 'prepared').length).toBe(5);
    expect(run.jobs.every((j) => j.prepStatus === null)).toBe(true);
    expect(run.ledger.calls).toBe(run.calls);
    // Some job's one activity was refused mid-way and called again; none went stage by stage.
    const types = run.histories.map(scheduledActivities);
    expect(types.every((t) => t.every((a) => a === 'prepareJobStages' || a === 'setPreparationStatus'))).toBe(true);
    expect(types.some((t) => t.filter((a) => a === 'prepareJobStages').length >= 2)).toBe(true);
  }, 240_000);
});
