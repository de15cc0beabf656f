import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { CancelledFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { DiscoverWorkflowResult, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { discoverWorkflowId, PREPARATION_WORKFLOW_TYPE, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { startLlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { createJobctrlWorker } from './create-worker';
import { disposeBoardWorld, setupBoardWorld, worldWorker } from './test-support/board-world.fixture';
import { createProbeActivities } from './test-support/probe.activities';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal } from './test-support/temporal.harness';
import { SIMULATOR_HOST_POLICY } from './test-support/simulator-host-policy';
import { activityRuns, killWorker, pollingIdentity, seedEnrichedJob, until, within, writeWorkerAppConfig, type HistoryEvent } from './test-support/worker-app.harness';

const address = testTemporalAddress();

Runtime.install({ logger: new DefaultLogger('ERROR') });

// The probe workflows and the real ones, bundled once for the suite.
const suite = useSuiteTemporal(path.join(__dirname, 'test-support', 'test.workflows.ts'));

async function historyOf(workflowId: string): Promise<HistoryEvent[]> {
  return (await suite.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

/** A Lever board whose first answer is 429 with Retry-After: 45, and a worker on the real workflows. */
async function retryAfterWorld() {
  const world = await setupBoardWorld(3, {
    families: [{ kind: 'lever', token: 'globex' }],
    knobs: { boards: { 'lever:globex': { rateLimit429: { nextN: 1, retryAfterSec: 45 } } } },
  });
  const jw = await worldWorker(suite, world, { pipeline: { internalConcurrency: 2, hostPolicy: { ...SIMULATOR_HOST_POLICY, maxInFlightPerHost: 2 } } });
  return { world, jw };
}

describe('Activity liveness: heartbeats that do not depend on progress', () => {
  it('an activity quiet for 3× its heartbeat timeout finishes in its first attempt, and the details it reported survive the timer beats', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const jw = await createJobctrlWorker({
      connection: suite.connection,
      namespace: 'default',
      taskQueue: world.taskQueue,
      capacity: workerCapacity(2),
      uow: world.uow,
      workflowBundle: suite.bundle,
      extraActivities: () => ({ ...createProbeActivities(world.uow, new Map()) }),
    });
    try {
      await jw.worker.runUntil(async () => {
        // The probe proxy has a 2 s heartbeat timeout and 3 attempts.
        const handle = await suite.client.workflow.start('quietWaitProbeWorkflow', { taskQueue: world.taskQueue, workflowId: `quiet-${randomUUID()}`, args: [6_000] });
        const pending = await until('the probe to wait past its heartbeat timeout', async () => {
          const { raw } = await handle.describe();
          const [activity] = raw.pendingActivities ?? [];
          const sinceStart = activity?.lastStartedTime ? Date.now() - Number(String(activity.lastStartedTime.seconds)) * 1000 : 0;
          return sinceStart > 4_000 && activity;
        }, 30_000);
        // What a retry would resume from: the activity's own checkpoint, not a timer beat's nothing.
        const details = pending.heartbeatDetails?.payloads?.[0]?.data;
        expect(details?.length ? JSON.parse(Buffer.from(details).toString('utf8')) : undefined).toBe('checkpoint');
        expect(pending.attempt).toBe(1);
        expect(await handle.result()).toBe(1);
        const [run] = activityRuns(await historyOf(handle.workflowId), 'waitWithoutProgress');
        expect(run).toMatchObject({ attempt: 1, outcome: 'completed', heartbeatTimeoutS: 2 });
      });
    } finally {
      await jw.close();
      await disposeBoardWorld(world);
    }
  });

  it('a board answering Retry-After: 45 is waited out inside the family\'s first attempt (30 s heartbeat timeout): no time-out, no second attempt', async () => {
    const { world, jw } = await retryAfterWorld();
    try {
      const runId = randomUUID();
      const result: DiscoverWorkflowResult = await jw.worker.runUntil(
        suite.client.workflow.execute('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }),
      );
      expect(result).toMatchObject({ state: 'completed', familiesCompleted: ['lever'], familiesFailed: [] });
      const jobs = (await world.jobs.list({ limit: 100, offset: 0 })).total;
      expect(jobs).toBe(world.sim.manifest().jobs.filter((j) => j.repostOf === null).length);

      const events = await historyOf(discoverWorkflowId(runId));
      const [family] = activityRuns(events, 'discoverySourceFamily');
      expect(family).toMatchObject({ attempt: 1, outcome: 'completed', heartbeatTimeoutS: 30 });
      // The 45 s cooldown was spent inside that one attempt (a lower bound, not a race).
      expect(family.closedAt - family.startedAt).toBeGreaterThanOrEqual(44_000);
      // The enrichment consumers waited behind the same host cooldown and were not timed out either.
      for (const enrichment of activityRuns(events, 'discoveryEnrichment')) expect(enrichment.attempt).toBe(1);
    } finally {
      await jw.close();
      await disposeBoardWorld(world);
    }
  }, 120_000);

  it('cancelling the run while its family waits out that Retry-After ends the wait within seconds: the family is cancelled, not failed or timed out', async () => {
    const { world, jw } = await retryAfterWorld();
    try {
      const runId = randomUUID();
      const handle = await suite.client.workflow.start('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
      const err = await jw.worker.runUntil(async () => {
        await until('the board to answer 429', () => (world.sim.stats().requests['/v0/postings/globex'] ?? 0) >= 1, 60_000);
        await handle.cancel();
        return handle.result().then(() => undefined, (e: unknown) => e);
      });
      expect(err).toBeInstanceOf(WorkflowFailedError);
      expect((err as WorkflowFailedError).cause).toBeInstanceOf(CancelledFailure);
      expect(await world.runs.get(runId)).toMatchObject({ state: 'cancelled', familiesFailed: [] });

      const [family] = activityRuns(await historyOf(discoverWorkflowId(runId)), 'discoverySourceFamily');
      expect(family).toMatchObject({ attempt: 1, outcome: 'cancelled' });
      // The cancel reached the waiting family through a timer heartbeat, long before the cooldown
      // (or the 30 s heartbeat timeout) would have ended the attempt.
      expect(family.closedAt - family.cancelRequestedAt).toBeLessThan(15_000);
      // The board was not asked again.
      expect(world.sim.stats().requests['/v0/postings/globex']).toBe(1);
    } finally {
      await jw.close();
      await disposeBoardWorld(world);
    }
  });

  it('kill -9 of the worker while a job is scoring: the held score is retried within seconds of a new worker polling, and the job is scored once', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const llm = await startLlmSimulator({ respond: () => ({ score: 20, rationale: 'Partial fit.', matched: [], missing: [] }) });
    // The first model call never answers while its worker lives: the score stays held by that worker.
    llm.enqueue({ hangMs: 600_000 });
    const configPath = writeWorkerAppConfig(world, llm.url);
    await new ProfileRepository(world.uow).put(sampleProfile());
    const idempotencyKey = `kill-${world.taskQueue}`;
    await seedEnrichedJob(world, 'j1', idempotencyKey);

    let worker = spawnWorkerApp(configPath, address);
    try {
      const workflowId = prepWorkflowId(idempotencyKey);
      const handle = await suite.client.workflow.start(PREPARATION_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId, args: [{ jobKey: 'j1', idempotencyKey, mode: 'score' }] });
      await until('the first worker to call the model', () => llm.requests.length >= 1, 90_000, () => worker.log());
      const killed = worker;
      const killedIdentity = pollingIdentity(killed);
      await killWorker(killed);

      worker = spawnWorkerApp(configPath, address);
      const identity = await until('the new worker to poll', () => pollingIdentity(worker), 90_000, () => worker.log());
      const pollingAt = Date.now();
      // Generous, and far below the old recovery (the score's 3-minute start-to-close timeout).
      const result = await within(60_000, 'the held score retried', handle.result() as Promise<JobPreparationResult>, () => worker);
      expect(result).toMatchObject({ jobKey: 'j1', stage: 'scored', score: 20 });

      const [score] = activityRuns(await historyOf(workflowId), 'scoreJob');
      expect(score).toMatchObject({ attempt: 2, outcome: 'completed', identity, heartbeatTimeoutS: 10 });
      expect(score.identity).not.toBe(killedIdentity);
      // The retry started within 30 s of the new worker polling (measured on the server's clock).
      expect(score.startedAt - pollingAt).toBeLessThan(30_000);
      // Once: the held call and its one retry reached the model, and the job is scored.
      expect(llm.requests.length).toBe(2);
      expect((await world.jobs.get('j1'))?.stage).toBe('scored');
    } finally {
      await worker.stop();
      await llm.close();
      await disposeBoardWorld(world);
    }
  }, 180_000);
});
