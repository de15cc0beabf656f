import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as sqlite3 from 'sqlite3';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { SmokeWorkflowResult } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { workerCapacity } from '@jobctrl/shared/temporal';
import {
  aggregateCapacity,
  classifyWorkerReadiness,
  HeartbeatWriter,
  OPERATIONS_ENTITIES,
  WorkerHeartbeatRepository,
} from '@jobctrl/operations';
import { createJobctrlWorker, JobctrlWorker } from './create-worker';
import { createWorkerHeartbeatWriter } from './worker-heartbeat';
import { TemporalProbe } from './temporal-probe';
import { createProbeActivities } from './test-support/probe.activities';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal } from './test-support/temporal.harness';
import { waitFor } from '@jobctrl/tools/processes';

const address = testTemporalAddress();

// Expected activity failures (the tests provoke them) would otherwise flood the output.
Runtime.install({ logger: new DefaultLogger('ERROR') });

// Bundled once for the whole suite, not per Worker.
const suite = useSuiteTemporal(path.join(__dirname, 'test-support', 'test.workflows.ts'));


interface Harness {
  taskQueue: string;
  databasePath: string;
  uow: UnitOfWorkFactory;
  jw: JobctrlWorker;
  attempts: Map<string, number>;
}

async function newDatabase(): Promise<{ dir: string; databasePath: string; uow: UnitOfWorkFactory }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-worker-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  return { dir, databasePath, uow: new UnitOfWorkFactory({ databasePath, entities: OPERATIONS_ENTITIES }) };
}

async function newWorker(taskQueue: string, slots: number, uow: UnitOfWorkFactory, attempts = new Map<string, number>()): Promise<JobctrlWorker> {
  return createJobctrlWorker({
    connection: suite.connection,
    namespace: 'default',
    taskQueue,
    capacity: workerCapacity(slots),
    uow,
    workflowBundle: suite.bundle,
    extraActivities: () => ({ ...createProbeActivities(uow, attempts) }),
  });
}

async function withWorker<T>(slots: number, fn: (h: Harness) => Promise<T>): Promise<T> {
  const { dir, databasePath, uow } = await newDatabase();
  const taskQueue = `test-${randomUUID()}`;
  const attempts = new Map<string, number>();
  const jw = await newWorker(taskQueue, slots, uow, attempts);
  try {
    return await jw.worker.runUntil(fn({ taskQueue, databasePath, uow, jw, attempts }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** The worker app's heartbeat writer (shorter interval), for tests that read the read model. */
function heartbeatWriter(jw: JobctrlWorker, taskQueue: string, databasePath: string, uow: UnitOfWorkFactory, slots: number): HeartbeatWriter {
  return createWorkerHeartbeatWriter({
    jw,
    capacity: workerCapacity(slots),
    repository: new WorkerHeartbeatRepository(uow),
    taskQueue,
    namespace: 'default',
    temporalAddress: address,
    databasePath,
    appDir: path.dirname(databasePath),
    intervalMs: 200,
    // Never probed here: these tests read capacity, not reachability (the stack e2e covers an outage).
    temporal: new TemporalProbe({ check: async () => undefined, intervalMs: 200 }),
  });
}

function query<T>(databasePath: string, sql: string, params: unknown[] = []): Promise<T[]> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(databasePath);
    db.all(sql, params, (err, rows) => db.close(() => (err ? reject(err) : resolve(rows as T[]))));
  });
}

describe('jobctrl worker against a real Temporal dev server', () => {
  it('with worker_activity_slots = 2, at most 2 remote activities run at once (and 2 do run together)', async () => {
    await withWorker(2, async ({ taskQueue, databasePath, jw }) => {
      let peakSeen = 0;
      const unwatch = jw.gauge.watchRemote((active) => (peakSeen = Math.max(peakSeen, active)));
      const result: SmokeWorkflowResult = await suite.client.workflow.execute('smokeWorkflow', {
        taskQueue,
        workflowId: `smoke-${randomUUID()}`,
        args: [{ activities: 6, holdMs: 1_200 }],
      });
      unwatch();
      expect(result.completed).toBe(6);
      expect(result.maxObservedActive).toBe(2);
      expect(peakSeen).toBe(2);
      expect(jw.gauge.snapshot().peakRemoteActive).toBe(2);
      expect(result.workers).toEqual([jw.identity]);

      const probes = await query<{ finished_at: number | null }>(databasePath, 'SELECT finished_at FROM smoke_probes');
      expect(probes).toHaveLength(6);
      expect(probes.every((p) => p.finished_at !== null)).toBe(true);
    });
  });

  it('writes workflow lifecycle events through the local control lane, exactly once each', async () => {
    await withWorker(1, async ({ taskQueue, databasePath, jw }) => {
      const workflowId = `smoke-${randomUUID()}`;
      await suite.client.workflow.execute('smokeWorkflow', { taskQueue, workflowId, args: [{ activities: 1, holdMs: 0 }] });
      const events = await query<{ event_type: string }>(
        databasePath,
        'SELECT event_type FROM workflow_lifecycle_events WHERE workflow_id = ? ORDER BY id',
        [workflowId],
      );
      expect(events.map((e) => e.event_type)).toEqual(['started', 'completed']);
      const g = jw.gauge.snapshot();
      expect(g.localStarted).toBe(2);
      expect(g.remoteStarted).toBe(1);
    });
  });

  it('refuses a non-allowlisted activity on the local control lane', async () => {
    await withWorker(1, async ({ taskQueue, attempts }) => {
      const failure = await suite.client.workflow.execute('localMisuseWorkflow', { taskQueue, workflowId: `misuse-${randomUUID()}` });
      expect(failure).toMatchObject({ type: 'local_control_not_allowed', nonRetryable: true });
      expect(attempts.get('should-not-run-locally')).toBeUndefined();
    });
  });

  it('fails an activity that returns with an open transaction (activity_transaction_unfinished), rolls it back, keeps committed work', async () => {
    await withWorker(1, async ({ taskQueue, databasePath, attempts }) => {
      const marker = randomUUID();
      const result = await suite.client.workflow.execute('transactionProbeWorkflow', { taskQueue, workflowId: `tx-${marker}`, args: [marker] });
      expect(result.committed).toBe(`${marker}-committed`);
      expect(result.unfinished).toMatchObject({ type: 'activity_transaction_unfinished', nonRetryable: true });
      // Non-retryable: one attempt only, although the retry policy allows three.
      expect(attempts.get(`${marker}-unfinished`)).toBe(1);
      const rows = await query<{ workflow_id: string }>(databasePath, 'SELECT workflow_id FROM smoke_probes WHERE workflow_id LIKE ?', [`${marker}%`]);
      expect(rows.map((r) => r.workflow_id)).toEqual([`${marker}-committed`]);
    });
  });

  it('a heartbeat write stuck in a database busy wait delays neither activity heartbeats nor the worker', async () => {
    await withWorker(1, async ({ taskQueue, databasePath, uow, jw }) => {
      const repo = new WorkerHeartbeatRepository(uow);
      const writer = heartbeatWriter(jw, taskQueue, databasePath, uow, 1);

      // Another connection holds the write lock for 4.5 s: every heartbeat write busy-waits.
      const locker = new sqlite3.Database(databasePath);
      await new Promise<void>((res, rej) => locker.exec('BEGIN IMMEDIATE; INSERT INTO smoke_probes (workflow_id, run_id, activity_id, attempt, observed_active, started_at) VALUES (\'lock\', \'r\', \'a\', 1, 0, 0);', (e) => (e ? rej(e) : res())));
      writer.start();
      const release = new Promise<void>((res) => setTimeout(() => locker.exec("COMMIT", () => locker.close(() => res())), 4_500));

      // The activity's heartbeat timeout is 2 s; it heartbeats every 250 ms for 3 s while the
      // heartbeat write is blocked. It completes only if the event loop stayed free.
      const beats = await suite.client.workflow.execute('heartbeatProbeWorkflow', { taskQueue, workflowId: `hb-${randomUUID()}`, args: [3_000] });
      expect(beats).toBeGreaterThanOrEqual(8);
      const during = writer.status();
      expect(during.ok).toBe(0);
      expect(during.skipped).toBeGreaterThan(0);

      await release;
      await writer.tick();
      await writer.tick();
      expect(writer.status().ok).toBeGreaterThanOrEqual(1);
      const readiness = classifyWorkerReadiness((await repo.listForDatabase(databasePath)) as never, {
        databasePath,
        appDir: path.dirname(databasePath),
        now: Date.now(),
        staleMs: 30_000,
      });
      expect(readiness.status).toBe('ready');
      await writer.stop();
      expect(await repo.listForDatabase(databasePath)).toHaveLength(0);
    });
  });

  it('two workers on one queue add up in the operations read model; 25 running show 20 items of 25', async () => {
    // The SDK allows one worker per task queue per process, so the second worker is the real worker
    // app in its own process, on the same database and queue: exactly the scale-out setup.
    const { dir, databasePath, uow } = await newDatabase();
    const taskQueue = `test-${randomUUID()}`;
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(
      configPath,
      JSON.stringify({ app_dir: '.', database_path: databasePath, worker_activity_slots: 23, temporal_task_queue: taskQueue, worker_heartbeat_interval_seconds: 1 }),
    );
    const other = spawnWorkerApp(configPath, address);

    const a = await newWorker(taskQueue, 2, uow);
    const writer = heartbeatWriter(a, taskQueue, databasePath, uow, 2);
    const repo = new WorkerHeartbeatRepository(uow);
    const readModel = async () =>
      aggregateCapacity((await repo.listForDatabase(databasePath)) as never, { databasePath, appDir: dir, now: Date.now(), staleMs: 30_000 });
    try {
      writer.start();
      await a.worker.runUntil(async () => {
        // The second worker app starts with ts-node: its output is its progress until it heartbeats.
        await waitFor(async () => ((await readModel()).workers.length === 2 ? { done: true } : { progress: other.log().length }), {
          what: 'the second worker to heartbeat',
          idleTimeoutMs: 90_000,
          intervalMs: 100,
        }).catch((err) => {
          throw new Error(`${(err as Error).message}\n--- second worker ---\n${other.log()}`);
        });
        const handle = await suite.client.workflow.start('smokeWorkflow', { taskQueue, workflowId: `smoke-${randomUUID()}`, args: [{ activities: 25, holdMs: 5_000 }] });
        const busy = await waitFor(
          async () => {
            const c = await readModel();
            return c.activeSlots === 25 ? { done: c } : { progress: c.activeSlots };
          },
          { what: '25 active slots in the read model', idleTimeoutMs: 30_000, intervalMs: 100 },
        );
        expect(busy).toMatchObject({ status: 'fresh', taskQueue, configuredSlots: 25, activeSlots: 25, availableSlots: 0, activeItemsTotal: 25 });
        expect(busy.workers).toHaveLength(2);
        expect(busy.activeItems).toHaveLength(20);
        expect(new Set(busy.activeItems.map((i) => i.workerId)).size).toBe(2);
        expect(busy.activeItems.every((i) => i.activityType === 'smokeHold' && i.workflowId === handle.workflowId)).toBe(true);
        const result = (await handle.result()) as SmokeWorkflowResult;
        expect(result.completed).toBe(25);
        expect(result.workers).toHaveLength(2);
        const idle = await waitFor(
          async () => {
            const c = await readModel();
            // A local lifecycle activity may still show as an item (it holds no slot): wait for both.
            return c.activeSlots === 0 && c.activeItems.length === 0 ? { done: c } : { progress: [c.activeSlots, c.activeItems.length] };
          },
          { what: 'the slots and items to free up', idleTimeoutMs: 30_000, intervalMs: 100 },
        );
        expect(idle).toMatchObject({ configuredSlots: 25, availableSlots: 25, activeItems: [] });
      });
    } finally {
      await writer.stop();
      await other.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
