import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRunRepository, JobRepository, PREPARATION_PENDING_STAGES } from '@jobctrl/shared/jobs';
import { discoverWorkflowId, type DiscoverWorkflowResult } from '@jobctrl/pipeline/contracts';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import type { WorkerOptions } from '@temporalio/worker';
import type { PipelineSettings } from '../activities';
import { createJobctrlWorker, type JobctrlWorkerOptions } from '../create-worker';
import type { SuiteTemporal } from './temporal.harness';
import { SIMULATOR_HOST_POLICY, simulatorSourcePolicy } from './simulator-host-policy';

export const FAMILIES = [
  { kind: 'greenhouse', token: 'acme' },
  { kind: 'lever', token: 'globex' },
  { kind: 'ashby', token: 'initech' },
  { kind: 'smartrecruiters', token: 'UmbrellaCorp' },
] as const;
const CONFIG_KEY: Record<string, string> = { greenhouse: 'board_token', lever: 'site', ashby: 'board', smartrecruiters: 'company_id' };

/** A board of the world: one of FAMILIES, or a Greenhouse board whose jobs carry no company_name. */
export type WorldFamily = (typeof FAMILIES)[number] | { kind: 'greenhouse'; token: 'acme'; jobCompanyName: false };

/**
 * A board simulator with one source per family (plus a mirror of the Greenhouse board), a fresh
 * migrated database and a unique task queue: the world the worker integration tests run in.
 */
export async function setupBoardWorld(jobsPerBoard: number, opts: { maxParallelFamilies?: number; knobs?: object; families?: ReadonlyArray<WorldFamily> } = {}) {
  const families = opts.families ?? FAMILIES;
  const sim = await startBoardSimulator({ seed: 7, jobsPerBoard, families: families.map((f) => ({ ...f })), knobs: opts.knobs });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-world-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
  const sources = new SourceService(new SourceRepository(uow), simulatorSourcePolicy(dir));
  for (const f of families) {
    await sources.create({ kind: f.kind, name: `${f.kind} ${f.token}`, config: { [CONFIG_KEY[f.kind]]: f.token, base_url: sim.url } });
  }
  if (families.some((f) => f.kind === 'greenhouse')) {
    // The same Greenhouse board reached through a second source: its jobs must not be stored twice.
    await sources.create({ kind: 'greenhouse', name: 'acme mirror', family: 'mirror', config: { board_token: 'acme', base_url: sim.url } });
  }
  if (opts.maxParallelFamilies) {
    await uow.run(({ manager }) => manager.query('UPDATE discovery_runtime_settings SET max_parallel_families = ?', [opts.maxParallelFamilies]));
  }
  const taskQueue = `test-${randomUUID()}`;
  return { sim, dir, databasePath, uow, taskQueue, jobs: new JobRepository(uow), runs: new DiscoveryRunRepository(uow) };
}

export type BoardWorld = Awaited<ReturnType<typeof setupBoardWorld>>;

/** Stops the world's board simulator and removes its folder (database included). */
export async function disposeBoardWorld(world: BoardWorld): Promise<void> {
  await world.sim.stop();
  fs.rmSync(world.dir, { recursive: true, force: true });
}

/**
 * An in-process worker of the worker app's own factory on the world's queue and database, without a
 * browser; no host spacing (the simulator is the only host), four slots unless told otherwise.
 */
export function worldWorker(
  suite: SuiteTemporal,
  world: BoardWorld,
  opts: { slots?: number; pipeline?: Partial<PipelineSettings>; workflowBundle?: WorkerOptions['workflowBundle']; extraActivities?: JobctrlWorkerOptions['extraActivities'] } = {},
) {
  return createJobctrlWorker({
    connection: suite.connection,
    namespace: 'default',
    taskQueue: world.taskQueue,
    capacity: workerCapacity(opts.slots ?? 4),
    uow: world.uow,
    workflowBundle: opts.workflowBundle ?? suite.bundle,
    pipeline: { internalConcurrency: 4, hostPolicy: SIMULATOR_HOST_POLICY, enrichmentPollMs: 100, ...opts.pipeline },
    ...(opts.extraActivities ? { extraActivities: opts.extraActivities } : {}),
  });
}

/**
 * One discover run of the world's sources on an in-process worker without a browser; the worker is
 * closed after. With `settle`, the worker is kept until no discovered job is pending a preparation
 * stage: each job's own preparation outlives the discover run, and one left queued would run on the
 * next worker of the queue and rewrite the job under the test.
 */
export async function discoverOnce(suite: SuiteTemporal, world: BoardWorld, opts: { settle?: boolean } = {}): Promise<DiscoverWorkflowResult> {
  const jw = await worldWorker(suite, world);
  try {
    const runId = randomUUID();
    return await jw.worker.runUntil(async () => {
      const result: DiscoverWorkflowResult = await suite.client.workflow.execute('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
      const deadline = Date.now() + 120_000;
      const pending = async () => (await world.jobs.list({ limit: 1000, offset: 0 })).items.filter((j) => (PREPARATION_PENDING_STAGES as readonly string[]).includes(j.stage)).length;
      while (opts.settle && (await pending()) > 0) {
        if (Date.now() > deadline) throw new Error(`${await pending()} discovered jobs still pending preparation after 120 s`);
        await new Promise((r) => setTimeout(r, 200));
      }
      return result;
    });
  } finally {
    await jw.close();
  }
}
