import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import { pipelineWorkflowId, type JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { SourceRepository, SourceService } from '@jobctrl/discovery';
import { PipelineRunService, type PipelineRunView } from '@jobctrl/runs';
import type { SettingsService } from '@jobctrl/shared/config';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { SpendLedgerRepository } from '@jobctrl/shared/llm';
import { startLlmSimulator, type LlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import type { TemporalClientService } from '@jobctrl/shared/temporal';
import { createPipelineResponder } from './test-support/llm-responder';
import { allJobs, setupPreparationWorld, startPipeline } from './test-support/preparation-world.fixture';
import { useSuiteTemporal } from './test-support/temporal.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

/** The service behind GET /v1/pipeline/runs/:id and its cancel, over the test's database and queue. */
function runsApi(uow: UnitOfWorkFactory, taskQueue: string): PipelineRunService {
  const temporal = { taskQueue, client: async (): Promise<Client> => suite.client } as unknown as TemporalClientService;
  const settings = { get: () => ({ pipeline_internal_concurrency: 2 }), live: () => ({ pipeline_internal_concurrency: 2 }) } as unknown as SettingsService;
  return new PipelineRunService(uow, temporal, settings, new SourceService(new SourceRepository(uow)));
}

async function executions(workflowId: string): Promise<string[]> {
  const statuses: string[] = [];
  for await (const wf of suite.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) statuses.push(wf.status.name);
  return statuses;
}

/** For every execution of the chain that continued as new: how many queued targets its input carried on. */
async function continuedBatchQueues(workflowId: string): Promise<number[]> {
  const sizes: number[] = [];
  for await (const wf of suite.client.workflow.list({ query: `WorkflowId = '${workflowId}' AND ExecutionStatus = 'ContinuedAsNew'` })) {
    const history = await suite.client.workflow.getHandle(workflowId, wf.runId).fetchHistory();
    for (const e of history.events ?? []) {
      const payload = e.workflowExecutionContinuedAsNewEventAttributes?.input?.payloads?.[0];
      if (!payload?.data) continue;
      const input = JSON.parse(Buffer.from(payload.data).toString('utf8')) as { resume?: { batch: { queue: unknown[] } } };
      sizes.push(input.resume?.batch.queue.length ?? 0);
    }
  }
  return sizes;
}

/** Polls the run through the API's service until `done`, keeping every state it showed on the way. */
async function watch(api: PipelineRunService, runId: string, done: (v: PipelineRunView) => boolean, idleMs = 60_000): Promise<{ final: PipelineRunView; seen: PipelineRunView[] }> {
  const seen: PipelineRunView[] = [];
  let last = '';
  let movedAt = Date.now();
  for (;;) {
    const view = await api.get(runId);
    seen.push(view);
    if (done(view)) return { final: view, seen };
    // The deadline follows progress: only a run that stops moving for idleMs fails the test.
    const signature = JSON.stringify([view.state, view.progress, view.preparation]);
    if (signature !== last) [last, movedAt] = [signature, Date.now()];
    if (Date.now() - movedAt > idleMs) throw new Error(`run ${runId} stopped moving at ${signature}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

describe('Runs tell the truth', () => {
  it('a batch that continues as new (more than twice) reads running throughout and ends completed; cancel works in a continued execution', async () => {
    const s = await setupPreparationWorld(suite, { jobsPerBoard: 8 });
    try {
      await s.jw.worker.runUntil(async () => {
        const api = runsApi(s.uow, s.taskQueue);
        // A tiny history limit with one job at a time: the batch continues as new again and again.
        const { runId } = await startPipeline(suite, s.uow, s.taskQueue, ['discover', 'score', 'tailor', 'cover'], { batchHistoryLimit: 15, internalConcurrency: 1, batchPageSize: 1 });
        const { final, seen } = await watch(api, runId, (v) => !['pending', 'running'].includes(v.state));
        expect(final.state).toBe('completed');
        expect(final.finishedAt).not.toBeNull();
        expect(seen.filter((v) => v.state === 'running').length).toBeGreaterThan(0);
        // Never `failed` (or finished) on the way, though its executions closed as continued-as-new.
        expect(seen.slice(0, -1).every((v) => v.state === 'running' || v.state === 'pending')).toBe(true);
        expect(seen.slice(0, -1).every((v) => v.finishedAt === null)).toBe(true);
        expect(final.preparation).toMatchObject({ failed: 0 });
        expect(final.preparation?.completed).toBe(final.preparation?.selected);
        const chain = await executions(pipelineWorkflowId(runId));
        expect(chain.filter((st) => st === 'CONTINUED_AS_NEW').length).toBeGreaterThanOrEqual(2);
        // Each continue-as-new input carries at most a page of targets, not the whole selection.
        const carried = await continuedBatchQueues(pipelineWorkflowId(runId));
        expect(carried.length).toBeGreaterThanOrEqual(2);
        expect(Math.max(...carried)).toBeLessThanOrEqual(1);
        expect(final.preparation?.selected).toBeGreaterThan(2);

        // A new profile re-prepares everything in a long batch; cancel it once it has continued. One
        // target per page: the extractive batch prepares its jobs itself, a page per call.
        await new ProfileRepository(s.uow).put({ ...sampleProfile(), summary: 'A changed summary.' });
        const second = await startPipeline(suite, s.uow, s.taskQueue, ['score', 'tailor', 'cover'], { scope: 'profile_update', batchHistoryLimit: 15, internalConcurrency: 1, batchPageSize: 1 });
        const deadline = Date.now() + 60_000;
        while (!(await executions(pipelineWorkflowId(second.runId))).includes('CONTINUED_AS_NEW')) {
          if (Date.now() > deadline) throw new Error('the profile batch never continued as new');
          await new Promise((r) => setTimeout(r, 200));
        }
        expect((await api.get(second.runId)).state).toBe('running');
        await api.cancel(second.runId);
        const cancelled = await watch(api, second.runId, (v) => !['pending', 'running'].includes(v.state));
        expect(cancelled.final.state).toBe('cancelled');
        expect(cancelled.final.preparation?.completed).toBeLessThan(cancelled.final.preparation?.selected ?? 0);
      });
    } finally {
      await s.cleanup();
    }
  }, 240_000);

  it('a run whose planning fails (a source deleted or disabled after it was accepted) ends failed with the reason, never running forever', async () => {
    const s = await setupPreparationWorld(suite, { jobsPerBoard: 2, families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      await s.jw.worker.runUntil(async () => {
        const api = runsApi(s.uow, s.taskQueue);
        const deleted = '00000000-0000-4000-8000-0000000000dd';
        for (const stages of [['discover'], ['discover', 'score']] as const) {
          const { runId } = await api.startRun({ stages: [...stages], sourceIds: [deleted], scope: 'run' });
          const { final } = await watch(api, runId, (v) => !['pending', 'running'].includes(v.state), 20_000);
          expect(final.state).toBe('failed');
          expect(final.finishedAt).not.toBeNull();
          expect(final.error).toContain(deleted);
        }
        const [source] = await s.uow.run(({ manager }) => manager.query(`SELECT id, name FROM sources WHERE family = 'greenhouse'`)) as Array<{ id: string }>;
        await s.uow.run(({ manager }) => manager.query(`UPDATE sources SET enabled = 0 WHERE id = ?`, [source.id]));
        const { runId } = await api.startRun({ stages: ['discover'], sourceIds: [source.id], scope: 'run' });
        const { final } = await watch(api, runId, (v) => !['pending', 'running'].includes(v.state), 20_000);
        expect(final).toMatchObject({ state: 'failed', error: expect.stringContaining('disabled') });
      });
    } finally {
      await s.cleanup();
    }
  }, 120_000);

  it('a full run over jobs another batch (a profile update) is re-preparing completes only when every job it covers is final, and counts them', async () => {
    // A model that takes a while (five calls a job), so the update's batch is still busy when the run ends its discovery.
    const sim = await startLlmSimulator({ latencyMs: 300, respond: createPipelineResponder() });
    const s = await setupPreparationWorld(suite, {
      jobsPerBoard: 8,
      families: [{ kind: 'greenhouse', token: 'acme' }],
      llm: { provider: 'openai', model: 'local', baseUrl: sim.url, prices: {}, timeoutMs: 10_000 },
    });
    try {
      await s.jw.worker.runUntil(async () => {
        const api = runsApi(s.uow, s.taskQueue);
        await (await startPipeline(suite, s.uow, s.taskQueue, ['discover', 'score', 'tailor', 'cover'])).handle.result();
        const { revision } = await new ProfileRepository(s.uow).put({ ...sampleProfile(), summary: 'Platform engineer, now with a new summary.' });
        // The profile update's batch re-prepares one job at a time ...
        const update = await startPipeline(suite, s.uow, s.taskQueue, ['score', 'tailor', 'cover'], { scope: 'profile_update', profileRevision: revision, internalConcurrency: 1 });
        // ... while the user runs discover → cover over the same board.
        const run = await startPipeline(suite, s.uow, s.taskQueue, ['discover', 'score', 'tailor', 'cover']);
        const result = (await run.handle.result()) as JobPipelineResult;
        const final = await api.get(run.runId);
        expect(final.state).toBe('completed');
        const jobs = await allJobs(s.jobs);
        // Completed means every job it covers reached a final stage against the current profile.
        for (const job of jobs) {
          expect(['scored', 'prepared', 'cover_rejected']).toContain(job.stage);
          expect(job.scoreProfileRevision).toBe(revision);
        }
        // And the run counted the jobs it waited for (those the update had not re-prepared yet).
        expect(result.preparation?.selected).toBeGreaterThan(0);
        expect(final.preparation).toMatchObject({ selected: result.preparation?.selected, completed: result.preparation?.selected, failed: 0 });
        await update.handle.result();
      });
    } finally {
      await s.cleanup();
      await sim.close();
    }
  }, 180_000);

  it('progress.detail moves per job under the family + terminal spine, and no count ever goes back', async () => {
    // Slow detail pages: the one family is listed long before its jobs are enriched and scored.
    const s = await setupPreparationWorld(suite, { jobsPerBoard: 16, families: [{ kind: 'greenhouse', token: 'acme' }], knobs: { latencyMs: 120 } });
    try {
      await s.jw.worker.runUntil(async () => {
        const api = runsApi(s.uow, s.taskQueue);
        const { runId } = await api.startRun({ stages: ['discover'], scope: 'run' });
        const { final, seen } = await watch(api, runId, (v) => !['pending', 'running'].includes(v.state));
        expect(final.state).toBe('completed');
        const details = seen.map((v) => v.progress.detail).filter((d) => d !== null);
        for (let i = 1; i < details.length; i++) {
          for (const key of ['jobsCommitted', 'jobsEnriched', 'jobsScored'] as const) expect(details[i]?.[key]).toBeGreaterThanOrEqual(details[i - 1]?.[key] ?? 0);
        }
        for (let i = 1; i < seen.length; i++) expect(seen[i].progress.completed).toBeGreaterThanOrEqual(seen[i - 1].progress.completed);
        // While the spine stood still, the detail showed the run moving.
        const beforeSpineEnd = seen.filter((v) => v.progress.completed < v.progress.total && v.progress.detail);
        expect(new Set(beforeSpineEnd.map((v) => JSON.stringify(v.progress.detail))).size).toBeGreaterThan(1);
        const jobs = await allJobs(s.jobs);
        expect(final.progress).toMatchObject({ completed: final.progress.total, detail: { jobsCommitted: jobs.length, jobsEnriched: jobs.length } });
      });
    } finally {
      await s.cleanup();
    }
  }, 120_000);

  describe('cancel stops spending (#27 C.1)', () => {
    /** prep-{key} executions still running on this world's task queue. */
    async function runningPreparations(taskQueue: string): Promise<string[]> {
      const ids: string[] = [];
      for await (const wf of suite.client.workflow.list({ query: `WorkflowType = 'jobPreparationWorkflow' AND ExecutionStatus = 'Running' AND TaskQueue = '${taskQueue}'` })) ids.push(wf.workflowId);
      return ids;
    }

    async function until(what: string, check: () => boolean | Promise<boolean>, ms = 60_000): Promise<void> {
      const deadline = Date.now() + ms;
      while (!(await check())) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }

    /**
     * Cancels a run once the model has been asked `after` times (and `ready` holds), then checks the
     * promise: once the run reads cancelled no new model request starts, the calls in flight settle and
     * are charged, none of its preparations runs on, and idle recovery would not take its jobs up again.
     */
    async function cancelMidSpend(
      stages: Array<'discover' | 'score' | 'tailor' | 'cover'>,
      ready: (api: PipelineRunService, runId: string, sim: LlmSimulator) => Promise<boolean>,
      world: { jobsPerBoard: number; knobs?: object } = { jobsPerBoard: 6 },
    ): Promise<void> {
      // A slow model (1.5 s an answer), as the attack measured: 8 requests at the cancel, 71 thirty-three seconds later.
      const sim = await startLlmSimulator({ latencyMs: 1_500, respond: createPipelineResponder() });
      const s = await setupPreparationWorld(suite, {
        ...world,
        llm: { provider: 'openai', model: 'local', baseUrl: sim.url, prices: { local: { input_usd_per_mtok: 1, output_usd_per_mtok: 1 } }, timeoutMs: 10_000 },
      });
      try {
        await s.jw.worker.runUntil(async () => {
          const api = runsApi(s.uow, s.taskQueue);
          const { runId } = await api.startRun({ stages, scope: 'run' });
          await until('model work under way', () => ready(api, runId, sim));
          await api.cancel(runId);
          const { final } = await watch(api, runId, (v) => !['pending', 'running', 'spend_ceiling_reached'].includes(v.state));
          expect(final.state).toBe('cancelled');
          const atCancelled = sim.requests.length;
          // Three model latencies: a preparation still running would have asked again by now.
          await new Promise((r) => setTimeout(r, 4_500));
          expect(sim.requests.length).toBe(atCancelled);
          expect(await runningPreparations(s.taskQueue)).toEqual([]);
          // Every request that reached the model server is in the ledger (the ones in flight at the cancel too).
          await until('in-flight calls to settle', () => sim.inFlight === 0);
          const ledger = new SpendLedgerRepository(s.uow);
          await until('every call charged', async () => (await ledger.summary()).calls === sim.requests.length, 15_000);
          expect((await ledger.summary()).totalUsd).toBeGreaterThan(0);
          // The jobs it left waiting are marked, and idle recovery leaves them to the person.
          const waiting = (await allJobs(s.jobs)).filter((j) => ['pending_score', 'pending_tailor', 'pending_cover'].includes(j.stage));
          expect(waiting.length).toBeGreaterThan(0);
          for (const job of waiting) expect(job.prepStatus).toBe('cancelled');
        });
      } finally {
        await s.cleanup();
        await sim.close();
      }
    }

    it('while discovering: the preparations its handoff started are cancelled with it', async () => {
      // Slow detail pages: the crawl is still enriching (and handing jobs off) when the model is busy.
      await cancelMidSpend(['discover'], async (api, runId, sim) => (await api.get(runId)).state === 'running' && sim.requests.length >= 3, { jobsPerBoard: 10, knobs: { latencyMs: 400 } });
    }, 180_000);

    it('while preparing: the batch cancels the preparations it started', async () => {
      await cancelMidSpend(['discover', 'score', 'tailor', 'cover'], async (api, runId, sim) => {
        const view = await api.get(runId);
        // Discovery is over and the batch has started jobs of its own.
        return view.preparation !== null && view.preparation.selected > 0 && sim.requests.length >= 4;
      });
    }, 180_000);
  });
});
