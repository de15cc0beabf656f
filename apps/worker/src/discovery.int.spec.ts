import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { CancelledFailure } from '@temporalio/common';
import { WorkflowFailedError, type Client } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, WorkerOptions } from '@temporalio/worker';
import type { DiscoverWorkflowResult } from '@jobctrl/pipeline/contracts';
import { discoverWorkflowId, LIVE_CONSUMER_DRAINS_PATCH, prepWorkflowId, PRODUCERS_FIRST_PATCH, PRODUCERS_FIRST_PRIORITY, TERMINAL_HANDOFF_PATCH } from '@jobctrl/pipeline/contracts';
import { LifecycleProjector } from '@jobctrl/shared/jobs';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { createJobctrlWorker, workflowsEntry } from './create-worker';
import { startPreparationWith } from '@jobctrl/runs/worker';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal } from './test-support/temporal.harness';
import { disposeBoardWorld, setupBoardWorld } from './test-support/board-world.fixture';
import { waitFor } from '@jobctrl/tools/processes';
import { SIMULATOR_HOST_POLICY, SIMULATOR_CONFIG_KEYS } from './test-support/simulator-host-policy';

const address = testTemporalAddress();

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

const setupData = setupBoardWorld;

/** setupData plus an in-process worker on the suite's bundle. */
async function setup(jobsPerBoard: number, opts: { maxParallelFamilies?: number; knobs?: object; workflowBundle?: WorkerOptions['workflowBundle'] } = {}) {
  const data = await setupData(jobsPerBoard, opts);
  const jw = await createJobctrlWorker({
    connection: suite.connection,
    namespace: 'default',
    taskQueue: data.taskQueue,
    capacity: workerCapacity(6),
    uow: data.uow,
    workflowBundle: opts.workflowBundle ?? suite.bundle,
    pipeline: { internalConcurrency: 4, hostPolicy: SIMULATOR_HOST_POLICY, enrichmentPollMs: 100, browserExecutablePath: '/usr/bin/chromium' },
  });
  const cleanup = async () => {
    await jw.close();
    await disposeBoardWorld(data);
  };
  return { ...data, jw, cleanup };
}

async function prepWorkflowsOn(taskQueue: string): Promise<string[]> {
  const ids: string[] = [];
  for await (const wf of suite.client.workflow.list({ query: `TaskQueue = '${taskQueue}' AND WorkflowType = 'jobPreparationWorkflow'` })) ids.push(wf.workflowId);
  return ids;
}

type World = Awaited<ReturnType<typeof setupBoardWorld>>;

/**
 * The prep workflow ids on the world's queue once there is one per job and every job is scored. The
 * wait lasts while either count moves (a loaded machine is slow, not stuck); the caller's assertions
 * say what is missing when it stops moving.
 */
async function prepWorkflowsWhenScored(w: World, expected: number): Promise<string[]> {
  const scored = async () => (await w.jobs.list({ stage: 'scored', limit: 1, offset: 0 })).total;
  let ids: string[] = [];
  await waitFor(
    async () => {
      ids = (await prepWorkflowsOn(w.taskQueue)).sort();
      const count = await scored();
      return ids.length >= expected && count === expected ? { done: true } : { progress: [ids.length, count] };
    },
    { what: 'a scored preparation per job', idleTimeoutMs: 60_000, intervalMs: 300 },
  ).catch(() => undefined);
  return ids;
}

/** Until the run has completed `families` families: follows the run's progress, no fixed deadline. */
async function untilFamiliesDone(w: World, runId: string, families: number, log = () => ''): Promise<void> {
  await waitFor(
    async () => {
      const run = await w.runs.get(runId);
      return run && run.progress.completed >= families ? { done: true } : { progress: run?.progress ?? null };
    },
    { what: `${families} families of the run`, idleTimeoutMs: 60_000, intervalMs: 50 },
  ).catch((err: Error) => {
    throw new Error(`the run never got going: ${err.message}\n${log()}`);
  });
}

describe('DiscoverWorkflow against the board simulator', () => {
  it('4 families × 50 jobs (+ a mirror source): every unique job stored once, enriched, exactly one preparation per job', async () => {
    const s = await setup(50);
    try {
      const runId = randomUUID();
      // One worker run for the whole test: a Worker cannot be restarted once runUntil returns.
      await s.jw.worker.runUntil(async () => {
        const result: DiscoverWorkflowResult = await suite.client.workflow.execute('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });
        expect(result.familiesCompleted.sort()).toEqual(['ashby', 'greenhouse', 'lever', 'mirror', 'smartrecruiters']);

        const manifest = s.sim.manifest();
        const unique = manifest.jobs.filter((j) => j.repostOf === null);
        const { items, total } = await s.jobs.list({ limit: 1000, offset: 0 });
        expect(total).toBe(unique.length);
        // Every Greenhouse job was seen by both sources and is still one job.
        const acme = items.filter((j) => j.sources.some((src) => src.sourceKind === 'greenhouse'));
        expect(acme.every((j) => new Set(j.sources.map((src) => src.sourceId)).size === 2)).toBe(true);
        // Robots-blocked private pages were not fetched, and those jobs still moved on to scoring.
        expect(items.filter((j) => j.enrichmentStatus === 'robots_blocked').length).toBe(manifest.jobs.filter((j) => j.private && j.repostOf === null).length);
        expect(Object.keys(s.sim.stats().requests).some((p) => p.startsWith('/private/'))).toBe(false);
        expect(items.filter((j) => j.enrichmentMethod === 'json_ld').length).toBeGreaterThan(0);
      // Pages that render only with JavaScript were read through the bounded Chromium.
      const jsPages = manifest.jobs.filter((j) => j.detailKind === 'js' && !j.private && j.repostOf === null).length;
      expect(items.filter((j) => j.enrichmentMethod === 'browser' && j.enrichmentStatus === 'enriched').length).toBe(jsPages);

        const run = await s.runs.get(runId);
        expect(run).toMatchObject({ state: 'completed', progress: { completed: 6, total: 6 }, jobsDiscovered: unique.length, familiesFailed: [] });

        // Exactly one prep-{idempotency_key} per job, and each finished scoring the job.
        const expectedIds = items.map((j) => prepWorkflowId(j.idempotencyKey)).sort();
        const ids = await prepWorkflowsWhenScored(s, unique.length);
        expect(ids).toEqual(expectedIds);
        expect((await s.jobs.list({ stage: 'scored', limit: 1, offset: 0 })).total).toBe(unique.length);
      });
    } finally {
      await s.cleanup();
    }
    // A deadline, not a timing goal: ~70 s on an idle 2-core machine, over 120 s while CI shares it
    // with other suites (since discover-producers-first-v1 the crawl ends early and the run then
    // waits for the ~200 preparations it handed off).
  }, 300_000);

  it('records a family answering malformed JSON in familiesFailed while the others complete', async () => {
    const s = await setup(10, { knobs: { boards: { 'lever:globex': { malformedJson: true } } } });
    try {
      const runId = randomUUID();
      const result: DiscoverWorkflowResult = await s.jw.worker.runUntil(
        suite.client.workflow.execute('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }),
      );
      expect(result.familiesFailed).toEqual(['lever']);
      expect(result.familiesCompleted.sort()).toEqual(['ashby', 'greenhouse', 'mirror', 'smartrecruiters']);
      const run = await s.runs.get(runId);
      expect(run?.familiesFailed).toEqual([{ family: 'lever', error: expect.stringContaining('malformed') }]);
      expect(run?.progress).toEqual({ completed: 6, total: 6 });
      const { items } = await s.jobs.list({ limit: 1000, offset: 0 });
      expect(items.some((j) => j.sources.some((src) => src.sourceKind === 'lever'))).toBe(false);
      expect(items.length).toBeGreaterThan(0);
    } finally {
      await s.cleanup();
    }
  });

  it('max_parallel_families 1 runs families strictly one by one; 2 runs two at once', async () => {
    const s = await setup(6, { knobs: { latencyMs: 120 } });
    try {
      await s.jw.worker.runUntil(async () => {
        const peakFamilies = async (maxParallel: number) => {
          await s.uow.run(({ manager }) => manager.query('UPDATE discovery_runtime_settings SET max_parallel_families = ?', [maxParallel]));
          let peak = 0;
          const sampler = setInterval(() => {
            const running = s.jw.gauge.snapshot().detail.filter((d) => d.activityType === 'discoverySourceFamily').length;
            peak = Math.max(peak, running);
          }, 10);
          const runId = randomUUID();
          try {
            const result: DiscoverWorkflowResult = await suite.client.workflow.execute('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
            expect(result.familiesFailed).toEqual([]);
          } finally {
            clearInterval(sampler);
          }
          const run = await s.runs.get(runId);
          expect((run?.plan as { maxParallelFamilies: number }).maxParallelFamilies).toBe(maxParallel);
          return peak;
        };
        expect(await peakFamilies(1)).toBe(1);
        expect(await peakFamilies(2)).toBe(2);
      });
    } finally {
      await s.cleanup();
    }
  });

  it('cancelling the run mid-crawl cancels the whole run: no further families, the consumer stopped, state cancelled', async () => {
    const s = await setup(8, { knobs: { latencyMs: 150 } });
    try {
      await s.jw.worker.runUntil(async () => {
        const runId = randomUUID();
        const handle = await suite.client.workflow.start('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        await untilFamiliesDone(s, runId, 1);
        await handle.cancel();
        const err = await handle.result().then(() => undefined, (e: unknown) => e);
        expect(err).toBeInstanceOf(WorkflowFailedError);
        expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);

        const run = await s.runs.get(runId);
        expect(run?.state).toBe('cancelled');
        // The family in flight was cancelled, not folded as a failure, and nothing after it ran.
        expect(run?.familiesFailed).toEqual([]);
        expect(run?.progress.completed).toBeLessThan(run?.progress.total ?? 0);
        const projector = new LifecycleProjector(s.uow);
        await projector.refresh();
        expect((await projector.get(discoverWorkflowId(runId))).map((p) => p.status)).toEqual(['cancelled']);
        // WAIT_CANCELLATION_COMPLETED: no discovery activity is left running on the worker.
        // (Preparation workflows are independent of the run and may still be scoring.)
        const discoveryActive = () =>
          s.jw.gauge.snapshot().detail.filter((d) => d.activityType === 'discoverySourceFamily' || d.activityType === 'discoveryEnrichment').length;
        expect(discoveryActive()).toBe(0);
      });
    } finally {
      await s.cleanup();
    }
  });

  it('replays a history recorded before the terminal-handoff, producers-first and live-drain markers, and one recorded with them', async () => {
    const v0 = await bundleWorkflowCode({
      workflowsPath: path.join(__dirname, 'test-support', 'discover-v0.workflows.ts'),
      webpackConfigHook: workflowsEntry().webpackConfigHook as never,
    });
    type History = Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>;
    const markers = (h: History) => (h.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch').length;
    // The priority key of every activity the run scheduled (0 or undefined: the queue's default).
    const priorities = (h: History) => [...new Set((h.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes?.priority?.priorityKey || 0))];

    const old = await setup(4, { workflowBundle: v0 });
    let oldHistory;
    try {
      const runId = randomUUID();
      await old.jw.worker.runUntil(suite.client.workflow.execute('discoverWorkflow', { taskQueue: old.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }));
      oldHistory = await suite.client.workflow.getHandle(discoverWorkflowId(runId)).fetchHistory();
    } finally {
      await old.cleanup();
    }
    expect(markers(oldHistory)).toBe(0);
    expect(priorities(oldHistory)).toEqual([0]);
    // Today's code replays the old history deterministically (patched() is false there).
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    const cur = await setup(4);
    try {
      const runId = randomUUID();
      await cur.jw.worker.runUntil(suite.client.workflow.execute('discoverWorkflow', { taskQueue: cur.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }));
      const history = await suite.client.workflow.getHandle(discoverWorkflowId(runId)).fetchHistory();
      const ids = (history.events ?? [])
        .filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_patch')
        .map((e) => (JSON.parse(Buffer.from(e.markerRecordedEventAttributes?.details?.['patch-data']?.payloads?.[0]?.data as Uint8Array).toString('utf8')) as { id: string }).id);
      expect(ids.sort()).toEqual([LIVE_CONSUMER_DRAINS_PATCH, PRODUCERS_FIRST_PATCH, TERMINAL_HANDOFF_PATCH].sort());
      // The live consumer ended by itself (no cancel requested) once the families were done.
      const events = history.events ?? [];
      expect(events.filter((e) => e.activityTaskCancelRequestedEventAttributes)).toHaveLength(0);
      expect(events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'discoveryEnrichment')).toHaveLength(2);
      // Every activity of the run goes ahead of the per-job preparations it starts on the same queue.
      expect(priorities(history)).toEqual([PRODUCERS_FIRST_PRIORITY]);
      await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
      // The pre-marker code cannot replay a history that has the marker: the guard is what keeps both working.
      await expect(Worker.runReplayHistory({ workflowBundle: v0 }, history)).rejects.toThrow();
    } finally {
      await cur.cleanup();
    }
  });

  it('a start after the preparation completed does not run it again (one execution per job)', async () => {
    const s = await setup(2);
    try {
      const runId = randomUUID();
      await s.jw.worker.runUntil(async () => {
        await suite.client.workflow.execute('discoverWorkflow', { taskQueue: s.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        const [job] = (await s.jobs.list({ limit: 1, offset: 0 })).items;
        const handle = suite.client.workflow.getHandle(prepWorkflowId(job.idempotencyKey));
        await handle.result();
        // Late handoffs and fan-outs for a job whose preparation already completed.
        await startPreparationWith(suite.client, s.taskQueue, job);
        await startPreparationWith(suite.client, s.taskQueue, job);
        let runs = 0;
        for await (const wf of suite.client.workflow.list({ query: `WorkflowId = '${prepWorkflowId(job.idempotencyKey)}'` })) runs += wf.workflowId ? 1 : 0;
        expect(runs).toBe(1);
      });
    } finally {
      await s.cleanup();
    }
  });

  it('kill -9 of the worker mid-run, then a restart: the run completes with the same totals and no duplicates', async () => {
    const data = await setupData(25, { knobs: { latencyMs: 80 } });
    const configPath = path.join(data.dir, 'config.json');
    fs.writeFileSync(
      configPath,
      JSON.stringify({
        app_dir: '.',
        database_path: data.databasePath,
        worker_activity_slots: 6,
        temporal_task_queue: data.taskQueue,
        pipeline_internal_concurrency: 4,
        host_min_spacing_ms: 0,
        host_max_in_flight: 4,
        worker_heartbeat_interval_seconds: 1,
        ...SIMULATOR_CONFIG_KEYS,
      }),
    );
    let worker = spawnWorkerApp(configPath, address);
    try {
      const runId = randomUUID();
      const handle = await suite.client.workflow.start('discoverWorkflow', { taskQueue: data.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
      // Kill the worker once families have committed jobs but before the run is over.
      await untilFamiliesDone(data, runId, 2, () => worker.log());
      expect((await data.runs.get(runId))?.state).toBe('running');
      worker.child.kill('SIGKILL');
      await new Promise((r) => worker.child.once('exit', r));

      worker = spawnWorkerApp(configPath, address);
      const result = (await handle.result()) as DiscoverWorkflowResult;
      expect(result).toMatchObject({ state: 'completed', familiesFailed: [] });

      const unique = data.sim.manifest().jobs.filter((j) => j.repostOf === null);
      const { items, total } = await data.jobs.list({ limit: 1000, offset: 0 });
      expect(total).toBe(unique.length);
      expect(await data.runs.get(runId)).toMatchObject({ state: 'completed', progress: { completed: 6, total: 6 }, jobsDiscovered: unique.length });
      const expectedIds = items.map((j) => prepWorkflowId(j.idempotencyKey)).sort();
      const ids = await prepWorkflowsWhenScored(data, unique.length);
      expect(ids).toEqual(expectedIds);
      expect((await data.jobs.list({ stage: 'scored', limit: 1, offset: 0 })).total).toBe(unique.length);
    } finally {
      await worker.stop();
      await disposeBoardWorld(data);
    }
  }, 300_000);
});
