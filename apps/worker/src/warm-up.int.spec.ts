import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { Client } from '@temporalio/client';
import { warmUpWorkflowId } from '@jobctrl/pipeline/contracts';
import { createJobctrlWorker, JobctrlWorker, warmWorkflowSandbox } from './create-worker';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { SIMULATOR_HOST_POLICY } from './test-support/simulator-host-policy';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal(path.join(__dirname, 'test-support', 'test.workflows.ts'));

async function newWorker(opts: { warmUp?: boolean; browserExecutablePath?: string; taskQueue?: string }): Promise<JobctrlWorker> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-warm-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  return createJobctrlWorker({
    connection: suite.connection,
    namespace: 'default',
    taskQueue: opts.taskQueue ?? `warm-${randomUUID()}`,
    capacity: workerCapacity(1),
    uow: new UnitOfWorkFactory({ databasePath, entities: OPERATIONS_ENTITIES }),
    workflowBundle: suite.bundle,
    warmUp: opts.warmUp,
    pipeline: { internalConcurrency: 1, hostPolicy: { ...SIMULATOR_HOST_POLICY, maxInFlightPerHost: 1 }, browserExecutablePath: opts.browserExecutablePath },
  });
}

/** A created Worker holds the suite's connection until it has run; run it for nothing, then close. */
async function release(jw: JobctrlWorker): Promise<void> {
  await jw.worker.runUntil(Promise.resolve());
  await jw.close();
}

describe('worker warm-up (createJobctrlWorker({ warmUp: true }))', () => {
  it('starts every CPU thread (one per core) with the parser loaded and launches Chromium before the worker is returned', async () => {
    const jw = await newWorker({ warmUp: true, browserExecutablePath: '/usr/bin/chromium' });
    try {
      const { cpuThreads } = workerCapacity(1);
      expect(cpuThreads).toBe(Math.min(workerCapacity(1).executorWidth, Math.max(2, os.availableParallelism())));
      expect(jw.warmUp).toMatchObject({ cpuThreads, browser: 'launched' });
      expect(jw.cpu.stats().threads).toBe(cpuThreads);
      expect((jw.enrichment.renderer as unknown as { stats(): { launched: boolean } }).stats().launched).toBe(true);
    } finally {
      await release(jw);
    }
  });

  it('a browser that cannot launch is reported, not fatal: the worker still starts warm', async () => {
    const jw = await newWorker({ warmUp: true, browserExecutablePath: '/nonexistent/chromium' });
    try {
      expect(jw.warmUp?.browser).toEqual({ failed: expect.stringContaining('browser_executable_path') });
      expect(jw.cpu.stats().threads).toBe(workerCapacity(1).cpuThreads);
    } finally {
      await release(jw);
    }
  });

  it('without warmUp nothing is started ahead of the first job', async () => {
    const jw = await newWorker({ browserExecutablePath: '/usr/bin/chromium' });
    try {
      expect(jw.warmUp).toBeNull();
      expect(jw.cpu.stats().threads).toBe(0);
      expect((jw.enrichment.renderer as unknown as { stats(): { launched: boolean } }).stats().launched).toBe(false);
    } finally {
      await release(jw);
    }
  });

  it('warms the workflow sandbox of a polling worker with one warm-up workflow, run by that worker; without a worker it reports the failure instead of hanging', async () => {
    const taskQueue = `warm-${randomUUID()}`;
    const jw = await newWorker({ taskQueue });
    try {
      const warmed = await jw.worker.runUntil(warmWorkflowSandbox({ connection: suite.connection, namespace: 'default', taskQueue, identity: jw.identity }));
      expect(warmed).toEqual({ ms: expect.any(Number) });
      // One execution, completed, run by this worker (eager start on its own connection).
      const client = new Client({ connection: suite.connection, namespace: 'default' });
      const handle = client.workflow.getHandle(warmUpWorkflowId(jw.identity));
      expect((await handle.describe()).status.name).toBe('COMPLETED');
      const history = await handle.fetchHistory();
      const completedBy = history.events?.find((e) => e.workflowTaskCompletedEventAttributes)?.workflowTaskCompletedEventAttributes?.identity;
      expect(completedBy).toBe(jw.identity);
    } finally {
      await jw.close();
    }
    // Nobody polls this queue: the warm-up gives up after its timeout and says so.
    const alone = await warmWorkflowSandbox({ connection: suite.connection, namespace: 'default', taskQueue: `nobody-${randomUUID()}`, identity: `nobody-${randomUUID()}`, timeoutMs: 500 });
    expect(alone).toEqual({ failed: 'no result within 500 ms' });
  });
});
