import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Client, Connection, WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Runtime, WorkerOptions } from '@temporalio/worker';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { DISCOVER_WORKFLOW_TYPE, discoverWorkflowId } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { workerCapacity } from '@jobctrl/shared/temporal';
// eslint-disable-next-line @nx/enforce-module-boundaries -- bench composes apps and fixtures
import { createJobctrlWorker, JobctrlWorker, workflowsEntry } from '../../apps/worker/src/create-worker';
import type { BenchOptions, PhaseName } from './bench-args';
import type { BatchDiscoverInput, BatchDiscoverResult, BenchActivities } from './batch-discover.workflow';

// Plain CommonJS tools (typed by their .d.ts); required so that ts-node does not have to compile them.
// eslint-disable-next-line @nx/enforce-module-boundaries -- bench composes apps and fixtures
const { startBoardSimulator } = require('../fixtures/board-simulator.js') as typeof import('../fixtures/board-simulator');
const { ensureTemporalCli } = require('../temporal/install.js') as { ensureTemporalCli: (o?: { quiet?: boolean }) => Promise<string> };
const { startDevServer } = require('../temporal/dev-server.js') as {
  startDevServer: (o?: object) => Promise<{ address: string; version: string; logFile: string; stop: () => Promise<void> }>;
};

/** The four ATS boards of the simulator, in the order --families takes them. */
const FAMILIES = [
  { kind: 'greenhouse', token: 'acme', configKey: 'board_token' },
  { kind: 'lever', token: 'globex', configKey: 'site' },
  { kind: 'ashby', token: 'initech', configKey: 'board' },
  { kind: 'smartrecruiters', token: 'UmbrellaCorp', configKey: 'company_id' },
] as const;

/** As in the worker integration tests: no politeness spacing, four requests per host, 100 ms enrichment polls. */
const PIPELINE = { internalConcurrency: 4, hostPolicy: { minSpacingMs: 0, maxInFlightPerHost: 4 }, enrichmentPollMs: 100 };
const POLL_MS = 100;
const PROGRESS_EVERY_MS = 2000;

const log = (message: string) => process.stderr.write(`[bench] ${message}\n`);
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const secs = (ms: number) => `${(ms / 1000).toFixed(2)}s`;

// ---------------------------------------------------------------------------------------------------
// Everything the bench starts registers how to stop it; stopAll() runs those in reverse order, once,
// on success, on error and on SIGINT/SIGTERM.
// ---------------------------------------------------------------------------------------------------

const stack: Array<{ name: string; stop: () => Promise<unknown> }> = [];
let stopping: Promise<void> | undefined;

function onStop(name: string, stop: () => Promise<unknown>): void {
  stack.push({ name, stop });
}

function stopAll(): Promise<void> {
  stopping ??= (async () => {
    while (stack.length > 0) {
      const { name, stop } = stack.pop() as (typeof stack)[number];
      let timer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([stop(), new Promise((_, reject) => (timer = setTimeout(() => reject(new Error('timed out after 20 s')), 20_000)))]);
      } catch (err) {
        log(`stopping ${name} failed: ${err instanceof Error ? err.message : String(err)}`);
      } finally {
        clearTimeout(timer);
      }
    }
  })();
  return stopping;
}

// ---------------------------------------------------------------------------------------------------

interface Shared {
  options: BenchOptions;
  sim: Awaited<ReturnType<typeof startBoardSimulator>>;
  connection: NativeConnection;
  client: Client;
  bundles: Record<PhaseName, WorkerOptions['workflowBundle']>;
}

interface Db {
  dir: string;
  uow: UnitOfWorkFactory;
}

interface JobCounts {
  jobs: number;
  scored: number;
  firstScoredAt: number | null;
  lastScoredAt: number | null;
}

export interface PhaseResult {
  ttfsMs: number;
  totalMs: number;
  /** Until the workflow itself completed (streaming: before its preparation workflows finish scoring). */
  workflowMs: number;
  jobs: number;
  scored: number;
  stages: Record<string, number>;
  enrichment: Record<string, number>;
  workflowResult: unknown;
}

/** A fresh SQLite database with one source per family, pointing at the simulator. */
async function freshDb(shared: Shared, label: PhaseName): Promise<Db> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobctrl-bench-${label}-`));
  onStop(`${label} database dir`, async () => fs.rmSync(dir, { recursive: true, force: true }));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
  const sources = new SourceService(new SourceRepository(uow));
  for (const f of FAMILIES.slice(0, shared.options.families)) {
    await sources.create({ kind: f.kind, name: `${f.kind} ${f.token}`, config: { [f.configKey]: f.token, base_url: shared.sim.url } });
  }
  return { dir, uow };
}

async function counts(uow: UnitOfWorkFactory): Promise<JobCounts> {
  const rows: Array<{ jobs: number; scored: number; first: number | null; last: number | null }> = await uow.run(({ manager }) =>
    manager.query(`SELECT COUNT(*) AS jobs, COUNT(scored_at) AS scored, MIN(scored_at) AS first, MAX(scored_at) AS last FROM jobs`),
  );
  const r = rows[0];
  return { jobs: Number(r.jobs), scored: Number(r.scored), firstScoredAt: r.first === null ? null : Number(r.first), lastScoredAt: r.last === null ? null : Number(r.last) };
}

async function breakdown(uow: UnitOfWorkFactory, column: 'stage' | 'enrichment_status'): Promise<Record<string, number>> {
  const rows: Array<{ k: string; n: number }> = await uow.run(({ manager }) => manager.query(`SELECT ${column} AS k, COUNT(*) AS n FROM jobs GROUP BY ${column} ORDER BY ${column}`));
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

/** A real in-process worker, built by the product's factory, on its own task queue and database. */
async function startWorker(shared: Shared, label: PhaseName, db: Db): Promise<{ jw: JobctrlWorker; taskQueue: string; running: Promise<void> }> {
  const taskQueue = `bench-${label}-${randomUUID()}`;
  const jobs = new JobRepository(db.uow);
  const bench: BenchActivities = {
    // Jobs of the run that are ready to score, in job-key order (the baseline scores all of them).
    async benchJobsToScore({ runId }) {
      return (await jobs.selectPendingPreparation({ runId, includePendingTailor: false })).map((j) => j.jobKey);
    },
  };
  const jw = await createJobctrlWorker({
    connection: shared.connection,
    namespace: 'default',
    taskQueue,
    capacity: workerCapacity(shared.options.slots),
    uow: db.uow,
    workflowBundle: shared.bundles[label],
    pipeline: PIPELINE,
    extraActivities: () => ({ ...bench }),
  });
  const running = jw.worker.run();
  running.catch(() => undefined); // observed by the phase (race) and by the stop below
  onStop(`${label} worker`, async () => {
    if (jw.worker.getState() === 'RUNNING') jw.worker.shutdown();
    await running.catch((err: unknown) => log(`${label} worker stopped with an error: ${String(err)}`));
    // Worker threads (and, where the worker has one, the browser). close() is newer than cpu.
    const close = (jw as { close?: () => Promise<void> }).close;
    if (close) await close.call(jw);
    else await jw.cpu.close();
  });
  return { jw, taskQueue, running };
}

/**
 * Starts the ordering's workflow and polls the jobs table until the workflow is done and every job is
 * scored. TTFS and total come from the rows' own scored_at (same process clock as t0), so the poll
 * interval does not enter the numbers.
 */
async function measure(
  shared: Shared,
  label: PhaseName,
  db: Db,
  running: Promise<void>,
  start: () => Promise<WorkflowHandle>,
): Promise<PhaseResult> {
  const deadline = Date.now() + shared.options.timeoutS * 1000;
  const t0 = Date.now();
  const handle = await start();
  let done: { at: number; result?: unknown; error?: unknown } | undefined;
  handle.result().then(
    (result: unknown) => (done = { at: Date.now(), result }),
    (error: unknown) => (done = { at: Date.now(), error }),
  );
  let workerStopped: unknown;
  running.then(
    () => (workerStopped ??= new Error('the worker stopped')),
    (err: unknown) => (workerStopped ??= err),
  );

  let seenFirst = false;
  let lastProgress = t0;
  for (;;) {
    const c = await counts(db.uow);
    if (!seenFirst && c.firstScoredAt !== null) {
      seenFirst = true;
      log(`${label}: first score after ${secs(c.firstScoredAt - t0)} (${c.jobs} jobs stored so far)`);
    }
    if (done?.error) throw new Error(`${label}: workflow ${handle.workflowId} failed: ${describe(done.error)}`);
    if (done && c.jobs > 0 && c.scored === c.jobs && c.firstScoredAt !== null && c.lastScoredAt !== null) {
      const result: PhaseResult = {
        ttfsMs: c.firstScoredAt - t0,
        totalMs: c.lastScoredAt - t0,
        workflowMs: done.at - t0,
        jobs: c.jobs,
        scored: c.scored,
        stages: await breakdown(db.uow, 'stage'),
        enrichment: await breakdown(db.uow, 'enrichment_status'),
        workflowResult: done.result,
      };
      log(`${label}: done — ${result.jobs} jobs, TTFS ${secs(result.ttfsMs)}, all scored ${secs(result.totalMs)}, workflow ${secs(result.workflowMs)}`);
      return result;
    }
    if (done && c.jobs === 0) throw new Error(`${label}: the workflow finished without storing any job: ${JSON.stringify(done.result)}`);
    if (workerStopped) throw new Error(`${label}: the worker stopped during the run: ${describe(workerStopped)}`);
    const now = Date.now();
    if (now > deadline) {
      throw new Error(
        `${label}: not finished after ${shared.options.timeoutS}s (workflow ${done ? 'done' : 'running'}, ${c.scored}/${c.jobs} scored, stages ${JSON.stringify(await breakdown(db.uow, 'stage'))})`,
      );
    }
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      log(`${label}: +${secs(now - t0)} ${c.jobs} jobs stored, ${c.scored} scored${done ? ', workflow done' : ''}`);
    }
    await sleep(POLL_MS);
  }
}

/** 1. The product: DiscoverWorkflow, live enrichment consumer, per-job preparation workflows. */
async function runStreaming(shared: Shared): Promise<PhaseResult> {
  const db = await freshDb(shared, 'streaming');
  const { taskQueue, running } = await startWorker(shared, 'streaming', db);
  const runId = randomUUID();
  log(`streaming: DiscoverWorkflow ${discoverWorkflowId(runId)} on ${taskQueue}`);
  const result = await measure(shared, 'streaming', db, running, () =>
    shared.client.workflow.start(DISCOVER_WORKFLOW_TYPE, { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }),
  );
  await stopTop('streaming worker');
  return result;
}

/** 2. The baseline: the same activities in strict batch order (tools/bench/batch-discover.workflow.ts). */
async function runBatch(shared: Shared): Promise<PhaseResult> {
  const db = await freshDb(shared, 'batch');
  const { taskQueue, running } = await startWorker(shared, 'batch', db);
  const runId = randomUUID();
  const workflowId = `bench-batch-${runId}`;
  log(`batch: batchDiscoverWorkflow ${workflowId} on ${taskQueue}`);
  const input: BatchDiscoverInput = { runId, slots: shared.options.slots };
  const result = await measure(shared, 'batch', db, running, () => shared.client.workflow.start('batchDiscoverWorkflow', { taskQueue, workflowId, args: [input] }));
  const wf = result.workflowResult as BatchDiscoverResult;
  if (wf.familiesFailed.length > 0) log(`batch: families failed: ${JSON.stringify(wf.familiesFailed)}`);
  await stopTop('batch worker');
  return result;
}

/** Stops the most recently started thing now (a phase's worker) instead of at the end of the bench. */
async function stopTop(name: string): Promise<void> {
  const top = stack[stack.length - 1];
  if (top?.name !== name) return;
  stack.pop();
  await top.stop();
}

function describe(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  const cause = (err as { cause?: unknown }).cause;
  return cause ? `${err.message} (${describe(cause)})` : err.message;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

export async function runBench(options: BenchOptions): Promise<Record<string, unknown>> {
  const benchStart = Date.now();
  const families = FAMILIES.slice(0, options.families);
  log(
    `families ${families.map((f) => f.kind).join(',')} × ${options.jobs} jobs, latency ${options.latencyMs} ms, slots ${options.slots}, seed ${options.seed}; ` +
      `UV_THREADPOOL_SIZE ${process.env['UV_THREADPOOL_SIZE']}, ${os.cpus().length} CPUs`,
  );
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });

  const cli = await ensureTemporalCli();
  const server = await startDevServer({ cliPath: cli });
  onStop('Temporal dev server', () => server.stop());
  log(`Temporal dev server ${server.version} at ${server.address} (log ${server.logFile})`);

  const sim = await startBoardSimulator({
    seed: options.seed,
    jobsPerBoard: options.jobs,
    families: families.map((f) => ({ kind: f.kind, token: f.token })),
    knobs: { latencyMs: options.latencyMs },
  });
  onStop('board simulator', () => sim.stop());
  const expected = sim.manifest().jobs.filter((j) => j.repostOf === null).length;
  log(`board simulator at ${sim.url}: ${sim.manifest().jobs.length} postings, ${expected} unique jobs expected`);

  const connection = await NativeConnection.connect({ address: server.address });
  onStop('worker connection', () => connection.close());
  const clientConnection = await Connection.connect({ address: server.address });
  onStop('client connection', () => clientConnection.close());
  const client = new Client({ connection: clientConnection, namespace: 'default' });

  // Bundled once, before any clock starts.
  const bundleStart = Date.now();
  const entry = workflowsEntry();
  const bundlerLogger = new DefaultLogger('WARN');
  const bundles: Shared['bundles'] = {
    streaming: await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook as never, logger: bundlerLogger }),
    batch: await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'batch-discover.workflow.ts'), webpackConfigHook: entry.webpackConfigHook as never, logger: bundlerLogger }),
  };
  log(`workflow bundles ready in ${secs(Date.now() - bundleStart)}`);

  const shared: Shared = { options, sim, connection, client, bundles };
  const results = {} as Record<PhaseName, PhaseResult>;
  for (const phase of options.order) {
    results[phase] = phase === 'streaming' ? await runStreaming(shared) : await runBatch(shared);
  }
  const s = results.streaming;
  const b = results.batch;
  for (const [label, r] of Object.entries(results)) {
    if (r.jobs !== expected) log(`warning: ${label} stored ${r.jobs} jobs, the simulator's manifest has ${expected} unique jobs`);
  }
  log(`TTFS streaming ${secs(s.ttfsMs)} vs batch ${secs(b.ttfsMs)} (×${ratio(b.ttfsMs, s.ttfsMs)}); all scored ${secs(s.totalMs)} vs ${secs(b.totalMs)}`);

  return {
    bench: 'discover',
    families: options.families,
    family_kinds: families.map((f) => f.kind),
    jobs: options.jobs,
    latency_ms: options.latencyMs,
    slots: options.slots,
    seed: options.seed,
    order: options.order,
    internal_concurrency: PIPELINE.internalConcurrency,
    jobs_expected: expected,
    jobs_streaming: s.jobs,
    jobs_batch: b.jobs,
    scored_streaming: s.scored,
    scored_batch: b.scored,
    ttfs_ms: s.ttfsMs,
    batch_ttfs_ms: b.ttfsMs,
    total_ms: s.totalMs,
    batch_total_ms: b.totalMs,
    ttfs_ratio: ratio(b.ttfsMs, s.ttfsMs),
    total_ratio: ratio(b.totalMs, s.totalMs),
    workflow_ms: s.workflowMs,
    batch_workflow_ms: b.workflowMs,
    enrichment_streaming: s.enrichment,
    enrichment_batch: b.enrichment,
    temporal_cli: server.version,
    bench_wall_ms: Date.now() - benchStart,
  };
}

/** The command: runs the bench, stops everything it started (also on error and SIGINT/SIGTERM), prints the JSON last. */
export function runBenchCommand(options: BenchOptions): void {
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping everything the bench started`);
    void stopAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);

  runBench(options).then(
    async (result) => {
      await stopAll();
      process.stdout.write(`${JSON.stringify(result)}\n`);
      exitSoon(0);
    },
    async (err: unknown) => {
      log(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      await stopAll();
      exitSoon(1);
    },
  );
}

/** Lets stdout drain, then exits even if a native handle would keep the loop alive. */
function exitSoon(code: number): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}
