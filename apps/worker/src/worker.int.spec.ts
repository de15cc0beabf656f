import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import * as sqlite3 from 'sqlite3';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, WorkerOptions } from '@temporalio/worker';
import type { SmokeWorkflowResult } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { workerCapacity } from '@jobctrl/shared/temporal';
import {
  classifyWorkerReadiness,
  HEARTBEAT_SCHEMA_VERSION,
  HeartbeatWriter,
  OPERATIONS_ENTITIES,
  WorkerHeartbeatRepository,
} from '@jobctrl/operations';
import { createJobctrlWorker, JobctrlWorker, workflowsEntry } from './create-worker';
import { createProbeActivities } from './test-support/probe.activities';

const address = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!address) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test worker` (the jest globalSetup starts a Temporal dev server)');
}

// Expected activity failures (the tests provoke them) would otherwise flood the output.
Runtime.install({ logger: new DefaultLogger('ERROR') });

let bundle: WorkerOptions['workflowBundle'];
let connection: NativeConnection;
let clientConnection: Connection;
let client: Client;

beforeAll(async () => {
  // Bundled once for the whole suite, not per Worker.
  bundle = await bundleWorkflowCode({
    workflowsPath: path.join(__dirname, 'test-support', 'test.workflows.ts'),
    webpackConfigHook: workflowsEntry().webpackConfigHook as never,
  });
  connection = await NativeConnection.connect({ address });
  clientConnection = await Connection.connect({ address });
  client = new Client({ connection: clientConnection, namespace: 'default' });
});

afterAll(async () => {
  await clientConnection?.close();
  await connection?.close();
});


interface Harness {
  taskQueue: string;
  databasePath: string;
  uow: UnitOfWorkFactory;
  jw: JobctrlWorker;
  attempts: Map<string, number>;
}

async function withWorker<T>(slots: number, fn: (h: Harness) => Promise<T>): Promise<T> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-worker-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: OPERATIONS_ENTITIES });
  const taskQueue = `test-${randomUUID()}`;
  const attempts = new Map<string, number>();
  const jw = await createJobctrlWorker({
    connection,
    namespace: 'default',
    taskQueue,
    capacity: workerCapacity(slots),
    uow,
    workflowBundle: bundle,
    extraActivities: () => ({ ...createProbeActivities(uow, attempts) }),
  });
  try {
    return await jw.worker.runUntil(fn({ taskQueue, databasePath, uow, jw, attempts }));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
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
      const result: SmokeWorkflowResult = await client.workflow.execute('smokeWorkflow', {
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
      await client.workflow.execute('smokeWorkflow', { taskQueue, workflowId, args: [{ activities: 1, holdMs: 0 }] });
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
      const failure = await client.workflow.execute('localMisuseWorkflow', { taskQueue, workflowId: `misuse-${randomUUID()}` });
      expect(failure).toMatchObject({ type: 'local_control_not_allowed', nonRetryable: true });
      expect(attempts.get('should-not-run-locally')).toBeUndefined();
    });
  });

  it('fails an activity that returns with an open transaction (activity_transaction_unfinished), rolls it back, keeps committed work', async () => {
    await withWorker(1, async ({ taskQueue, databasePath, attempts }) => {
      const marker = randomUUID();
      const result = await client.workflow.execute('transactionProbeWorkflow', { taskQueue, workflowId: `tx-${marker}`, args: [marker] });
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
      const writer = new HeartbeatWriter({
        persist: (hb) => repo.upsert(hb),
        remove: (id) => repo.remove(id),
        executor: jw.executors.temporalSync,
        intervalMs: 200,
        snapshot: () => ({
          workerId: jw.identity,
          taskQueue,
          databasePath,
          appDir: path.dirname(databasePath),
          host: os.hostname(),
          pid: process.pid,
          activitySlots: 1,
          localControlSlots: 2,
          executorWidth: 3,
          schemaVersion: HEARTBEAT_SCHEMA_VERSION,
          startedAt: Date.now(),
          recordedAt: Date.now(),
          payload: {
            namespace: 'default',
            temporalAddress: address,
            uvThreadpoolSize: 4,
            activity: jw.gauge.snapshot(),
            executors: { temporalSync: jw.executors.temporalSync.stats(), blockingStage: jw.executors.blockingStage.stats() },
            heartbeatWrites: { ok: 0, failed: 0, skipped: 0, lastError: null },
          },
        }),
      });

      // Another connection holds the write lock for 4.5 s: every heartbeat write busy-waits.
      const locker = new sqlite3.Database(databasePath);
      await new Promise<void>((res, rej) => locker.exec('BEGIN IMMEDIATE; INSERT INTO smoke_probes (workflow_id, run_id, activity_id, attempt, observed_active, started_at) VALUES (\'lock\', \'r\', \'a\', 1, 0, 0);', (e) => (e ? rej(e) : res())));
      writer.start();
      const release = new Promise<void>((res) => setTimeout(() => locker.exec("COMMIT", () => locker.close(() => res())), 4_500));

      // The activity's heartbeat timeout is 2 s; it heartbeats every 250 ms for 3 s while the
      // heartbeat write is blocked. It completes only if the event loop stayed free.
      const beats = await client.workflow.execute('heartbeatProbeWorkflow', { taskQueue, workflowId: `hb-${randomUUID()}`, args: [3_000] });
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
});
