import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import { Client } from '@temporalio/client';
import { ACTIVITY_DETAIL_ALLOWLIST, LOCAL_CONTROL_ACTIVITIES, READABLE_WORKFLOW_ID, WORKER_WARM_UP_WORKFLOW_TYPE, warmUpWorkflowId } from '@jobctrl/pipeline/contracts';
import { type DetailCaptureDeps, warmDetailCapture } from '@jobctrl/enrichment';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import {
  ActivityGauge,
  ActivityStops,
  CpuTaskPool,
  createActivityInterceptors,
  createWorkerExecutors,
  findWorkspaceRoot,
  resolveTsconfigAlias,
  tsconfigPathsWebpackHook,
  WorkerCapacity,
  WorkerExecutors,
} from '@jobctrl/shared/temporal';
import { buildActivities, DEFAULT_PIPELINE, PipelineSettings } from './activities';

export interface JobctrlWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  capacity: WorkerCapacity;
  uow: UnitOfWorkFactory;
  /**
   * A prebuilt bundle (tests bundle once per suite). Otherwise the compiled worker loads the bundle
   * its build wrote, and under ts-node the workflows lib is bundled at start.
   */
  workflowBundle?: WorkerOptions['workflowBundle'];
  identity?: string;
  executorGraceMs?: number;
  pipeline?: PipelineSettings;
  /**
   * Warm the worker before returning it: every CPU thread (one per core, capacity.cpuThreads) loads
   * the detail parser, Chromium is launched when a browser is configured, and the database answers
   * once, so the first job pays no cold start. The worker app always warms (it reports ready only
   * after); benches that measure the first job pass true. Off by default for tests: under ts-node
   * each thread costs ~1 s and ~70 MB.
   */
  warmUp?: boolean;
  /** Activities registered beside the built-in ones (integration tests add probes here). */
  extraActivities?: (deps: { gauge: ActivityGauge; executors: WorkerExecutors }) => Record<string, (...args: never[]) => Promise<unknown>>;
}

export interface JobctrlWorker {
  worker: Worker;
  identity: string;
  gauge: ActivityGauge;
  executors: WorkerExecutors;
  cpu: CpuTaskPool;
  /** The worker's detail capture (job store, host policy, CPU pool, browser), for the enrichment retry pass. */
  enrichment: DetailCaptureDeps;
  /** What the warm-up did (null when `warmUp` was not asked for). */
  warmUp: WarmUpReport | null;
  /** Releases what the worker holds besides Temporal: worker threads and the browser. */
  close(): Promise<void>;
}

export interface WarmUpReport {
  ms: number;
  cpuThreads: number;
  /** 'none': no browser configured; a failed launch does not stop the worker (the next render retries). */
  browser: 'launched' | 'none' | { failed: string };
}

export function workflowsEntry(): { workflowsPath: string; webpackConfigHook: ReturnType<typeof tsconfigPathsWebpackHook> } {
  const tsconfig = path.join(findWorkspaceRoot(__dirname), 'tsconfig.base.json');
  return {
    workflowsPath: resolveTsconfigAlias(tsconfig, '@jobctrl/pipeline/workflows'),
    webpackConfigHook: tsconfigPathsWebpackHook(tsconfig),
  };
}

/**
 * The workflow bundle `nx build worker` wrote beside the compiled worker (tools/build/build.js), when
 * this is the compiled worker (its alias register names the tree in JOBCTRL_BUILD_DIR); undefined
 * under ts-node. A compiled tree without its bundle is a broken build, not a reason to bundle here.
 */
export function prebuiltWorkflowBundle(buildDir = process.env['JOBCTRL_BUILD_DIR']): { codePath: string } | undefined {
  if (!buildDir) return undefined;
  const codePath = path.join(buildDir, 'workflow-bundle.js');
  if (!fs.existsSync(codePath)) throw new Error(`${codePath} is missing: rebuild the worker (npx nx build worker)`);
  return { codePath };
}

export function newWorkerIdentity(): string {
  return `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * Builds the jobctrl Worker with the capacity model applied: remote slots = worker_activity_slots,
 * two allowlisted local control slots, and the two bounded executors (slots + 2) handed to the
 * activity factories. Used by the worker app and by the integration tests alike.
 */
export async function createJobctrlWorker(opts: JobctrlWorkerOptions): Promise<JobctrlWorker> {
  const identity = opts.identity ?? newWorkerIdentity();
  const gauge = new ActivityGauge({ allowlist: ACTIVITY_DETAIL_ALLOWLIST, readableWorkflowId: READABLE_WORKFLOW_ID });
  const stops = new ActivityStops();
  const executors = createWorkerExecutors(opts.capacity, { graceMs: opts.executorGraceMs });
  // CPU-heavy stage work (HTML parsing) runs on worker threads: as many as the cores can run (capacity).
  const cpu = new CpuTaskPool({ width: opts.capacity.cpuThreads });
  const workflowBundle = opts.workflowBundle ?? prebuiltWorkflowBundle();
  const built = buildActivities({
    uow: opts.uow,
    executors,
    gauge,
    stops,
    cpu,
    workerIdentity: identity,
    activitySlots: opts.capacity.remoteActivitySlots,
    pipeline: opts.pipeline ?? DEFAULT_PIPELINE,
    log: (m) => console.warn(`[worker] ${m}`),
  });
  const worker = await Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    identity,
    ...(workflowBundle ? { workflowBundle } : bundleAtStart()),
    activities: {
      ...built.activities,
      ...(opts.extraActivities?.({ gauge, executors }) ?? {}),
    },
    maxConcurrentActivityTaskExecutions: opts.capacity.remoteActivitySlots,
    maxConcurrentLocalActivityExecutions: opts.capacity.localControlSlots,
    interceptors: {
      activity: [createActivityInterceptors({ gauge, stops, localControlAllowlist: LOCAL_CONTROL_ACTIVITIES })],
    },
    shutdownGraceTime: '10 seconds',
    // Heartbeats are how activities learn of a cancel; the default throttle (0.8 × heartbeat timeout)
    // would leave a cancelled consumer running for up to 24 s.
    maxHeartbeatThrottleInterval: '2 seconds',
  });
  const close = async () => {
    await built.close();
    await cpu.close();
  };
  let warmUp: WarmUpReport | null = null;
  try {
    if (opts.warmUp) warmUp = await warmWorker(opts.uow, built.enrichment);
  } catch (err) {
    await close();
    throw err;
  }
  return { worker, identity, gauge, executors, cpu, enrichment: built.enrichment, warmUp, close };
}

/**
 * Runs the warm-up workflow (WORKER_WARM_UP_WORKFLOW_TYPE) on a worker that is already polling, so
 * the user's first run does not pay the sandbox's first workflow task. Started eagerly on the
 * worker's own connection: the server hands the task to this worker in the start's reply, not to
 * another worker of the queue. Best effort: a failure or `timeoutMs` is reported, never fatal (the
 * first run then pays the cold start, as before).
 */
export async function warmWorkflowSandbox(opts: {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  identity: string;
  timeoutMs?: number;
}): Promise<{ ms: number } | { failed: string }> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? 5_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    const client = new Client({ connection: opts.connection, namespace: opts.namespace });
    const run = client.workflow.execute(WORKER_WARM_UP_WORKFLOW_TYPE, {
      taskQueue: opts.taskQueue,
      workflowId: warmUpWorkflowId(opts.identity),
      workflowExecutionTimeout: '1 minute',
      requestEagerStart: true,
    });
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no result within ${timeoutMs} ms`)), timeoutMs)));
    await Promise.race([run, late]);
    return { ms: Date.now() - started };
  } catch (err) {
    return { failed: err instanceof Error ? err.message : String(err) };
  } finally {
    clearTimeout(timer);
  }
}

function bundleAtStart(): Pick<WorkerOptions, 'workflowsPath' | 'bundlerOptions'> {
  const entry = workflowsEntry();
  return { workflowsPath: entry.workflowsPath, bundlerOptions: { webpackConfigHook: entry.webpackConfigHook as never } };
}

/** Everything the first job would otherwise load: parser threads, the browser, the database. */
async function warmWorker(uow: UnitOfWorkFactory, enrichment: DetailCaptureDeps): Promise<WarmUpReport> {
  const started = Date.now();
  let browser: WarmUpReport['browser'] = enrichment.renderer ? 'launched' : 'none';
  await Promise.all([
    warmDetailCapture({ cpu: enrichment.cpu }),
    enrichment.renderer?.warm?.().catch((err: unknown) => {
      browser = { failed: err instanceof Error ? err.message : String(err) };
    }),
    // The first unit of work loads the sqlite3 binding and TypeORM's entity metadata.
    uow.run((u) => u.manager.query('SELECT 1')),
  ]);
  return { ms: Date.now() - started, cpuThreads: enrichment.cpu.stats().threads, browser };
}
