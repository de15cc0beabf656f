import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { temporal } from '@temporalio/proto';
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
import { setupBoardWorld, worldWorker } from './test-support/board-world.fixture';
import { createProbeActivities } from './test-support/probe.activities';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal, type WorkerProcess } from './test-support/temporal.harness';
import { waitFor } from '@jobctrl/tools/processes';
import { SIMULATOR_HOST_POLICY, SIMULATOR_CONFIG_KEYS } from './test-support/simulator-host-policy';

const address = testTemporalAddress();

Runtime.install({ logger: new DefaultLogger('ERROR') });

// The probe workflows and the real ones, bundled once for the suite.
const suite = useSuiteTemporal(path.join(__dirname, 'test-support', 'test.workflows.ts'));

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

async function historyOf(workflowId: string): Promise<HistoryEvent[]> {
  return (await suite.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

function eventMs(e: HistoryEvent): number {
  return Number(String(e.eventTime?.seconds ?? 0)) * 1000 + Math.floor((e.eventTime?.nanos ?? 0) / 1e6);
}

/**
 * Per activity type: its scheduled event and the started event of the attempt that closed it. The
 * server writes a retried activity's started event once, for its last attempt, so `attempt` there
 * counts every attempt that ran.
 */
function activityRuns(events: HistoryEvent[], activityType: string) {
  return events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === activityType)
    .map((scheduled) => {
      const started = events.find((e) => String(e.activityTaskStartedEventAttributes?.scheduledEventId) === String(scheduled.eventId));
      const closed = events.find((e) => {
        const a = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes ?? e.activityTaskCanceledEventAttributes;
        return String(a?.scheduledEventId) === String(scheduled.eventId);
      });
      return {
        heartbeatTimeoutS: Number(String(scheduled.activityTaskScheduledEventAttributes?.heartbeatTimeout?.seconds ?? 0)),
        scheduledAt: eventMs(scheduled),
        attempt: started?.activityTaskStartedEventAttributes?.attempt ?? 0,
        identity: started?.activityTaskStartedEventAttributes?.identity ?? null,
        startedAt: started ? eventMs(started) : NaN,
        closedAt: closed ? eventMs(closed) : NaN,
        cancelRequestedAt: eventMs(events.find((e) => String(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId) === String(scheduled.eventId)) ?? {}),
        outcome: closed?.activityTaskCompletedEventAttributes
          ? 'completed'
          : closed?.activityTaskCanceledEventAttributes
            ? 'cancelled'
            : closed?.activityTaskTimedOutEventAttributes
              ? 'timed out'
              : closed
                ? 'failed'
                : 'open',
      };
    });
}

/** Until `probe` returns a truthy value; a worker's growing log counts as progress and extends the wait. */
async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, idleTimeoutMs: number, log?: () => string): Promise<T> {
  return waitFor(
    async () => {
      const value = await probe();
      return value ? { done: value as T } : { progress: log?.().length ?? null };
    },
    { what, idleTimeoutMs, intervalMs: 100 },
  ).catch((err: Error) => {
    throw new Error(`${err.message}${log ? `\n${log()}` : ''}`);
  });
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
      await world.sim.stop();
      fs.rmSync(world.dir, { recursive: true, force: true });
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
      await world.sim.stop();
      fs.rmSync(world.dir, { recursive: true, force: true });
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
      await world.sim.stop();
      fs.rmSync(world.dir, { recursive: true, force: true });
    }
  });

  it('kill -9 of the worker while a job is scoring: the held score is retried within seconds of a new worker polling, and the job is scored once', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const llm = await startLlmSimulator({ respond: () => ({ score: 20, rationale: 'Partial fit.', matched: [], missing: [] }) });
    // The first model call never answers while its worker lives: the score stays held by that worker.
    llm.enqueue({ hangMs: 600_000 });
    const configPath = path.join(world.dir, 'config.json');
    fs.writeFileSync(
      configPath,
      JSON.stringify({
        app_dir: '.',
        database_path: world.databasePath,
        worker_activity_slots: 2,
        temporal_task_queue: world.taskQueue,
        worker_heartbeat_interval_seconds: 1,
        llm: { provider: 'openai', model: 'sim', base_url: llm.url, timeout_seconds: 600 },
        ...SIMULATOR_CONFIG_KEYS,
      }),
    );
    await new ProfileRepository(world.uow).put(sampleProfile());
    const idempotencyKey = `kill-${world.taskQueue}`;
    await world.jobs.recordObservations('r1', 'test', [
      {
        jobKey: 'j1', idempotencyKey, contentKey: null, canonicalUrl: null, sourceId: 'src', sourceKind: 'greenhouse', externalId: '1',
        title: 'Backend Engineer', company: 'Globex', location: null, remote: true, url: 'https://jobs.test/1', applyUrl: null,
        descriptionHtml: null, descriptionText: 'TypeScript, Kafka and PostgreSQL.', postedAt: null, salaryText: null, employmentType: null, tags: [],
      },
    ]);
    await world.jobs.recordEnrichment('j1', { status: 'enriched' });

    const polling = (w: WorkerProcess) => /worker (\S+) polling task queue/.exec(w.log())?.[1];
    let worker = spawnWorkerApp(configPath, address);
    try {
      const workflowId = prepWorkflowId(idempotencyKey);
      const handle = await suite.client.workflow.start(PREPARATION_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId, args: [{ jobKey: 'j1', idempotencyKey, mode: 'score' }] });
      await until('the first worker to call the model', () => llm.requests.length >= 1, 90_000, () => worker.log());
      const killed = worker;
      const killedIdentity = polling(killed);
      killed.child.kill('SIGKILL');
      await new Promise((r) => killed.child.once('exit', r));

      worker = spawnWorkerApp(configPath, address);
      const identity = await until('the new worker to poll', () => polling(worker), 90_000, () => worker.log());
      const pollingAt = Date.now();
      // Generous, and far below the old recovery (the score's 3-minute start-to-close timeout).
      let deadline: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        handle.result() as Promise<JobPreparationResult>,
        new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error(`the held score was not retried in time\n${worker.log()}`)), 60_000);
        }),
      ]).finally(() => clearTimeout(deadline));
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
      await world.sim.stop();
      fs.rmSync(world.dir, { recursive: true, force: true });
    }
  }, 180_000);
});
