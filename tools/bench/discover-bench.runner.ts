import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, WorkerOptions } from '@temporalio/worker';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { warmDetailCapture } from '@jobctrl/enrichment';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { ACTIVITY_DETAIL_ALLOWLIST, DISCOVER_WORKFLOW_TYPE, discoverWorkflowId, prepWorkflowId, READABLE_WORKFLOW_ID } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { ActivityGauge, ActivityStops, CpuTaskPool, createWorkerExecutors, workerCapacity } from '@jobctrl/shared/temporal';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import { buildActivities } from '../../apps/worker/src/activities';
import { createJobctrlWorker, newWorkerIdentity, warmWorkflowSandbox, workflowsEntry } from '../../apps/worker/src/create-worker';
import type { BaselineMode, BenchOptions, PhaseName } from './bench-args';
import { describe, isInterrupted, log, machineCpu, machineCpuBetween, onStop, processCpuMs, runCommand, runWorker, secs, sleep, startTemporal, stopNamed, type WorkerRun } from './bench-support';
import type { BatchDiscoverInput, BatchDiscoverResult, BenchActivities } from './batch-discover.workflow';
import { SIMULATOR_HOST_POLICY, simulatorSourcePolicy } from '../../apps/worker/src/test-support/simulator-host-policy';

/** The four ATS boards of the simulator, in the order --families takes them. */
const FAMILIES = [
  { kind: 'greenhouse', token: 'acme', configKey: 'board_token' },
  { kind: 'lever', token: 'globex', configKey: 'site' },
  { kind: 'ashby', token: 'initech', configKey: 'board' },
  { kind: 'smartrecruiters', token: 'UmbrellaCorp', configKey: 'company_id' },
] as const;

/**
 * As in the worker integration tests: no politeness spacing, four requests per host, 100 ms enrichment
 * polls (a commit in the same worker wakes the consumer at once anyway); Chromium from --browser.
 */
const pipelineOf = (options: BenchOptions) => ({
  internalConcurrency: 4,
  hostPolicy: SIMULATOR_HOST_POLICY,
  enrichmentPollMs: 100,
  ...(options.browser ? { browserExecutablePath: options.browser } : {}),
});
const INTERNAL_CONCURRENCY = 4;
const POLL_MS = 100;
const PROGRESS_EVERY_MS = 2000;
/** After the workflow is done, this long without a new score means nothing will score any more. */
const STALL_MS = 60_000;

interface Shared {
  options: BenchOptions;
  sim: Awaited<ReturnType<typeof startBoardSimulator>>;
  connection: NativeConnection;
  client: Client;
  bundles: { streaming: WorkerOptions['workflowBundle']; batch?: WorkerOptions['workflowBundle'] };
  baseline: Exclude<BaselineMode, 'auto'>;
  /** The dev server's process, for its share of the CPU. */
  serverPid: number | undefined;
}

interface Db {
  databasePath: string;
  uow: UnitOfWorkFactory;
}

interface JobCounts {
  jobs: number;
  scored: number;
  firstScoredAt: number | null;
  lastScoredAt: number | null;
  lastStoredAt: number | null;
}

export interface PhaseResult {
  ttfsMs: number;
  totalMs: number;
  /** Until the workflow itself completed (streaming: before its preparation workflows finish scoring). */
  workflowMs: number;
  /** Until the last job was first stored (discovery done, as far as the jobs table shows). */
  discoveredMs: number;
  jobs: number;
  scored: number;
  stages: Record<string, number>;
  enrichment: Record<string, number>;
  workflowResult: unknown;
  databasePath: string;
  /** How the first scored job was enriched (a robots-blocked job skips the fetch and the parse). */
  firstScoredEnrichment: string | null;
  /** Simulator requests during this ordering (until its worker stopped). */
  requests: { total: number; detail: number; robots: number; listing: number };
  /** The ordering's clock start (Date.now()); every *_ms above is relative to it. */
  t0: number;
  /** Streaming only: where the first scored job's time went. */
  firstScore?: FirstScoreBreakdown;
  /**
   * The whole machine's CPU from t0 until every job was seen scored (see machineCpuBetween), and
   * whose it was: this process (the worker or the direct activities, their CPU-pool threads, the board
   * simulator, the bench's polls), the Temporal dev server, and the rest (Chromium, mostly).
   */
  cpu?: { utilisation: number; cpu_s: number; bench_process_s: number; dev_server_s: number | null; other_s: number | null };
}

/**
 * Where the first scored job's time went, in ms, from timestamps the bench can observe: the
 * simulator's request log (listing, detail page, Chromium's render of it), the job row (first_seen_at
 * = commit, scored_at) and its prep-{key} workflow's history (started, scoreJob started). Each field
 * is the gap from the previous point; null when that point did not happen (a robots-blocked job has
 * no page fetch, a page that needs no browser no render).
 */
export interface FirstScoreBreakdown {
  job_key: string;
  enrichment: string | null;
  /** t0 → end of the board response that carried the job (the last API response before its commit). */
  listing_ms: number | null;
  /** → first_seen_at: the adapter's parsing and the commit of its batch. */
  commit_ms: number | null;
  /** → the consumer's first request for it (its page, or the job-page host's robots.txt). */
  wakeup_ms: number | null;
  /** → end of the plain page fetch (with robots.txt when it was the first of its host). */
  detail_fetch_ms: number | null;
  /** → end of Chromium's load of the page (JavaScript-only pages). */
  render_ms: number | null;
  /** → its preparation workflow started: the parse(s) in the CPU pool, the enrichment write, the start call. */
  parse_record_start_ms: number | null;
  /** → scoreJob started: the workflow task, the activity scheduled and dispatched. */
  workflow_start_ms: number | null;
  /** → scored_at: the scoring activity itself. */
  score_ms: number | null;
  /** t0 → scored_at (the ordering's TTFS). */
  total_ms: number;
}

/** A fresh SQLite database with one source per family, pointing at the simulator. */
async function freshDb(shared: Shared, label: PhaseName): Promise<Db> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobctrl-bench-${label}-`));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  if (shared.options.keepDbs) log(`${label}: database ${databasePath} (kept)`);
  else onStop(`${label} database dir`, async () => fs.rmSync(dir, { recursive: true, force: true }));
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
  const sources = new SourceService(new SourceRepository(uow), simulatorSourcePolicy());
  for (const f of FAMILIES.slice(0, shared.options.families)) {
    await sources.create({ kind: f.kind, name: `${f.kind} ${f.token}`, config: { [f.configKey]: f.token, base_url: shared.sim.url } });
  }
  return { databasePath, uow };
}

async function counts(uow: UnitOfWorkFactory): Promise<JobCounts> {
  const rows: Array<{ jobs: number; scored: number; first: number | null; last: number | null; stored: number | null }> = await uow.run(({ manager }) =>
    manager.query(`SELECT COUNT(*) AS jobs, COUNT(scored_at) AS scored, MIN(scored_at) AS first, MAX(scored_at) AS last, MAX(first_seen_at) AS stored FROM jobs`),
  );
  const r = rows[0];
  const num = (v: number | null) => (v === null ? null : Number(v));
  return { jobs: Number(r.jobs), scored: Number(r.scored), firstScoredAt: num(r.first), lastScoredAt: num(r.last), lastStoredAt: num(r.stored) };
}

async function firstScoredEnrichment(uow: UnitOfWorkFactory): Promise<string | null> {
  const rows: Array<{ status: string; method: string | null }> = await uow.run(({ manager }) =>
    manager.query(`SELECT enrichment_status AS status, enrichment_method AS method FROM jobs WHERE scored_at IS NOT NULL ORDER BY scored_at, job_key LIMIT 1`),
  );
  return rows[0] ? [rows[0].status, rows[0].method].filter(Boolean).join('/') : null;
}

async function breakdown(uow: UnitOfWorkFactory, column: 'stage' | 'enrichment_status'): Promise<Record<string, number>> {
  const rows: Array<{ k: string; n: number }> = await uow.run(({ manager }) => manager.query(`SELECT ${column} AS k, COUNT(*) AS n FROM jobs GROUP BY ${column} ORDER BY ${column}`));
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

/** A real in-process worker, built by the product's factory, on its own task queue and database. */
async function startWorker(shared: Shared, label: PhaseName, db: Db): Promise<{ taskQueue: string; worker: WorkerRun }> {
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
    workflowBundle: label === 'streaming' ? shared.bundles.streaming : shared.bundles.batch,
    pipeline: pipelineOf(shared.options),
    extraActivities: () => ({ ...bench }),
    // As the worker app does before it reports ready: parser threads and Chromium up before the clock starts.
    warmUp: true,
  });
  const worker = runWorker(`${label} worker`, jw);
  // And its workflow sandbox, as the worker app does once it polls (warmWorkflowSandbox).
  const sandbox = await warmWorkflowSandbox({ connection: shared.connection, namespace: 'default', taskQueue, identity: jw.identity });
  if ('failed' in sandbox) throw new Error(`${label}: the warm-up workflow failed: ${sandbox.failed}`);
  log(
    `${label}: worker warmed in ${secs(jw.warmUp?.ms ?? 0)} (${jw.warmUp?.cpuThreads ?? 0} CPU threads, browser ${JSON.stringify(jw.warmUp?.browser ?? 'none')}), workflow sandbox ${sandbox.ms} ms`,
  );
  return { taskQueue, worker };
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
  worker: WorkerRun | undefined,
  start: () => Promise<StartedRun>,
): Promise<PhaseResult> {
  shared.sim.resetStats();
  shared.sim.recordRequests();
  const deadline = Date.now() + shared.options.timeoutS * 1000;
  const cpu0 = machineCpu();
  const own0 = process.cpuUsage();
  const server0 = processCpuMs(shared.serverPid);
  const t0 = Date.now();
  const run = await start();
  let done: { at: number; result?: unknown; error?: unknown } | undefined;
  run.result.then(
    (result: unknown) => (done = { at: Date.now(), result }),
    (error: unknown) => (done = { at: Date.now(), error }),
  );

  let seenFirst = false;
  let lastProgress = t0;
  let lastScored = { n: -1, at: t0 };
  for (;;) {
    if (isInterrupted()) throw new Error(`${label}: interrupted`);
    const c = await counts(db.uow);
    if (c.scored !== lastScored.n) lastScored = { n: c.scored, at: Date.now() };
    if (!seenFirst && c.firstScoredAt !== null) {
      seenFirst = true;
      log(`${label}: first score after ${secs(c.firstScoredAt - t0)} (${c.jobs} jobs stored so far)`);
    }
    if (done?.error) throw new Error(`${label}: ${run.id} failed: ${describe(done.error)}`);
    if (done && c.jobs > 0 && c.scored === c.jobs && c.firstScoredAt !== null && c.lastScoredAt !== null) {
      const cpu = cpuShares(machineCpuBetween(cpu0, machineCpu()), process.cpuUsage(own0), server0, processCpuMs(shared.serverPid));
      const result: PhaseResult = {
        ttfsMs: c.firstScoredAt - t0,
        totalMs: c.lastScoredAt - t0,
        workflowMs: done.at - t0,
        discoveredMs: (c.lastStoredAt ?? t0) - t0,
        jobs: c.jobs,
        scored: c.scored,
        stages: await breakdown(db.uow, 'stage'),
        enrichment: await breakdown(db.uow, 'enrichment_status'),
        workflowResult: done.result,
        databasePath: db.databasePath,
        firstScoredEnrichment: await firstScoredEnrichment(db.uow),
        requests: { total: 0, detail: 0, robots: 0, listing: 0 }, // filled in once the worker stopped
        t0,
        ...(cpu ? { cpu } : {}),
      };
      log(
        `${label}: done — ${result.jobs} jobs, all stored ${secs(result.discoveredMs)}, TTFS ${secs(result.ttfsMs)}, all scored ${secs(result.totalMs)}, workflow ${secs(result.workflowMs)}` +
          (cpu ? `, cores ${Math.round(cpu.utilisation * 100)}% busy (${cpu.cpu_s} CPU-s: this process ${cpu.bench_process_s}, dev server ${cpu.dev_server_s ?? '?'}, other ${cpu.other_s ?? '?'})` : ''),
      );
      for (const line of formatTimeline(await run.timeline(t0))) log(`${label}:   ${line}`);
      return result;
    }
    if (done && c.jobs === 0) throw new Error(`${label}: ${run.id} finished without storing any job: ${JSON.stringify(done.result)}`);
    worker?.throwIfStopped(label);
    const now = Date.now();
    if (done && now - lastScored.at > STALL_MS) {
      throw new Error(
        `${label}: stalled — the workflow is done but no job was scored for ${STALL_MS / 1000}s (${c.scored}/${c.jobs} scored, stages ${JSON.stringify(await breakdown(db.uow, 'stage'))})`,
      );
    }
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

/** machineCpuBetween split into this process, the dev server and the rest (seconds, one decimal). */
function cpuShares(
  machine: ReturnType<typeof machineCpuBetween>,
  own: NodeJS.CpuUsage,
  server0: number | undefined,
  server1: number | undefined,
): PhaseResult['cpu'] {
  if (!machine) return undefined;
  const s = (ms: number) => Math.round(ms / 100) / 10;
  const ownMs = (own.user + own.system) / 1000;
  const serverMs = server0 !== undefined && server1 !== undefined ? server1 - server0 : undefined;
  return {
    ...machine,
    bench_process_s: s(ownMs),
    dev_server_s: serverMs === undefined ? null : s(serverMs),
    other_s: serverMs === undefined ? null : Math.max(0, s(machine.cpu_s * 1000 - ownMs - serverMs)),
  };
}

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;

const eventMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : 0);

/** One activity call of an ordering, in ms relative to t0. */
interface TimelineEntry {
  type: string;
  scheduled: number;
  closed?: number;
  attempt?: number;
  outcome?: string;
}

/** What measure() needs of a started ordering: an id, its outcome and, afterwards, its activity calls. */
interface StartedRun {
  id: string;
  result: Promise<unknown>;
  timeline(t0: number): Promise<TimelineEntry[]>;
}

function workflowRun(handle: WorkflowHandle): StartedRun {
  return { id: `workflow ${handle.workflowId}`, result: handle.result(), timeline: async (t0) => historyTimeline(await handle.fetchHistory(), t0) };
}

/** The activities of a workflow's own history (not of the workflows it started). */
function historyTimeline(history: History, t0: number): TimelineEntry[] {
  const byId = new Map<string, TimelineEntry>();
  for (const e of history.events ?? []) {
    const at = eventMs(e.eventTime) - t0;
    if (e.activityTaskScheduledEventAttributes) {
      byId.set(String(e.eventId), { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? '?', scheduled: at });
    } else if (e.activityTaskStartedEventAttributes) {
      const a = byId.get(String(e.activityTaskStartedEventAttributes.scheduledEventId));
      if (a) a.attempt = e.activityTaskStartedEventAttributes.attempt ?? 1;
    } else {
      const closed =
        (e.activityTaskCompletedEventAttributes && { id: e.activityTaskCompletedEventAttributes.scheduledEventId, outcome: 'completed' }) ||
        (e.activityTaskFailedEventAttributes && { id: e.activityTaskFailedEventAttributes.scheduledEventId, outcome: `failed: ${e.activityTaskFailedEventAttributes.failure?.message ?? ''}` }) ||
        (e.activityTaskTimedOutEventAttributes && { id: e.activityTaskTimedOutEventAttributes.scheduledEventId, outcome: 'timed out' }) ||
        (e.activityTaskCanceledEventAttributes && { id: e.activityTaskCanceledEventAttributes.scheduledEventId, outcome: 'cancelled' });
      const a = closed ? byId.get(String(closed.id)) : undefined;
      if (a && closed) Object.assign(a, { closed: at, outcome: closed.outcome });
    }
  }
  return [...byId.values()];
}

/** One line per activity call (scoreJob calls folded into one line): scheduled → closed, attempt, outcome. */
function formatTimeline(entries: TimelineEntry[]): string[] {
  const lines: string[] = [];
  const scores = entries.filter((a) => a.type === 'scoreJob');
  for (const a of entries) {
    if (a.type === 'scoreJob') continue;
    const retried = (a.attempt ?? 1) > 1 ? ` (attempt ${a.attempt})` : '';
    lines.push(`${a.type}: ${secs(a.scheduled)} → ${a.closed === undefined ? 'open' : secs(a.closed)} ${a.outcome ?? ''}${retried}`);
  }
  if (scores.length > 0) {
    const retried = scores.filter((a) => (a.attempt ?? 1) > 1).length;
    lines.push(`scoreJob ×${scores.length}: ${secs(Math.min(...scores.map((a) => a.scheduled)))} → ${secs(Math.max(...scores.map((a) => a.closed ?? Infinity)))}${retried ? `, ${retried} retried` : ''}`);
  }
  return lines;
}

/** 1. The product: DiscoverWorkflow, live enrichment consumer, per-job preparation workflows. */
async function runStreaming(shared: Shared): Promise<PhaseResult> {
  const db = await freshDb(shared, 'streaming');
  const { taskQueue, worker } = await startWorker(shared, 'streaming', db);
  const runId = randomUUID();
  log(`streaming: DiscoverWorkflow ${discoverWorkflowId(runId)} on ${taskQueue}`);
  const result = await measure(shared, 'streaming', db, worker, async () =>
    workflowRun(await shared.client.workflow.start(DISCOVER_WORKFLOW_TYPE, { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] })),
  );
  const firstScore = await firstScoreBreakdown(shared, db, result.t0);
  if (firstScore) log(`streaming: first score ${formatBreakdown(firstScore)}`);
  await stopNamed('streaming worker');
  return { ...result, requests: requestCounts(shared), firstScore };
}

/** See FirstScoreBreakdown. */
async function firstScoreBreakdown(shared: Shared, db: Db, t0: number): Promise<FirstScoreBreakdown | undefined> {
  const rows: Array<{ job_key: string; idempotency_key: string; url: string; first_seen_at: number; scored_at: number; status: string; method: string | null }> = await db.uow.run(({ manager }) =>
    manager.query(
      `SELECT job_key, idempotency_key, url, first_seen_at, scored_at, enrichment_status AS status, enrichment_method AS method FROM jobs WHERE scored_at IS NOT NULL ORDER BY scored_at, job_key LIMIT 1`,
    ),
  );
  const job = rows[0];
  if (!job) return undefined;
  const committed = Number(job.first_seen_at);
  const scored = Number(job.scored_at);
  const served = shared.sim.requests();
  const listing = served.filter((r) => r.host === 'api' && r.path !== '/robots.txt' && r.end !== null && r.end <= committed).at(-1);
  const page = new URL(job.url);
  const pageHost = page.port === new URL(shared.sim.url).port ? 'api' : 'detail';
  const fetches = served.filter((r) => r.path === page.pathname && r.start >= committed);
  const robots = served.find((r) => r.path === '/robots.txt' && r.host === pageHost && r.start >= committed && (fetches[0] === undefined || r.start <= fetches[0].start));
  const firstRequest = robots ?? fetches[0];
  // The prep workflow's own history: when it started, when its score activity was picked up.
  let wfStarted: number | null = null;
  let scoreStarted: number | null = null;
  try {
    const history = await shared.client.workflow.getHandle(prepWorkflowId(job.idempotency_key)).fetchHistory();
    const scheduled = new Set<string>();
    for (const e of history.events ?? []) {
      if (e.workflowExecutionStartedEventAttributes) wfStarted = eventMs(e.eventTime);
      // scoreJob, or (extractive provider captured at the handoff) the one activity that classifies and scores.
      if (['scoreJob', 'prepareJobExtractive'].includes(e.activityTaskScheduledEventAttributes?.activityType?.name ?? '')) scheduled.add(String(e.eventId));
      if (e.activityTaskStartedEventAttributes && scheduled.has(String(e.activityTaskStartedEventAttributes.scheduledEventId)) && scoreStarted === null) scoreStarted = eventMs(e.eventTime);
    }
  } catch (err) {
    log(`streaming: no history for the first scored job's preparation: ${describe(err)}`);
  }
  const gap = (from: number | null | undefined, to: number | null | undefined) => (from == null || to == null ? null : to - from);
  const fetched = fetches[0]?.end ?? null;
  const rendered = fetches.length > 1 ? fetches[fetches.length - 1].end : null;
  return {
    job_key: job.job_key,
    enrichment: [job.status, job.method].filter(Boolean).join('/') || null,
    listing_ms: gap(t0, listing?.end),
    commit_ms: gap(listing?.end ?? t0, committed),
    wakeup_ms: gap(committed, firstRequest?.start),
    detail_fetch_ms: gap(firstRequest?.start, fetched),
    render_ms: gap(fetched, rendered),
    parse_record_start_ms: gap(rendered ?? fetched ?? firstRequest?.end ?? committed, wfStarted),
    workflow_start_ms: gap(wfStarted, scoreStarted),
    score_ms: gap(scoreStarted, scored),
    total_ms: scored - t0,
  };
}

function formatBreakdown(b: FirstScoreBreakdown): string {
  const parts: Array<[string, number | null]> = [
    ['listing', b.listing_ms],
    ['commit', b.commit_ms],
    ['wake-up', b.wakeup_ms],
    ['detail fetch', b.detail_fetch_ms],
    ['render', b.render_ms],
    ['parse+record+start', b.parse_record_start_ms],
    ['workflow start', b.workflow_start_ms],
    ['score', b.score_ms],
  ];
  return `${secs(b.total_ms)} (${b.enrichment ?? '?'}) = ${parts.filter(([, v]) => v !== null).map(([k, v]) => `${k} ${v} ms`).join(' + ')}`;
}

/**
 * 2a. The baseline, direct: the activity objects the worker registers (buildActivities, same
 * factories and settings), called in strict batch order from here, each inside its own
 * MockActivityEnvironment (@temporalio/testing) for the activity context they heartbeat through.
 */
async function runBatchDirect(shared: Shared): Promise<PhaseResult> {
  const { MockActivityEnvironment } = require('@temporalio/testing') as typeof import('@temporalio/testing');
  const db = await freshDb(shared, 'batch');
  const capacity = workerCapacity(shared.options.slots);
  const cpu = new CpuTaskPool({ width: capacity.cpuThreads });
  const built = buildActivities({
    uow: db.uow,
    executors: createWorkerExecutors(capacity),
    gauge: new ActivityGauge({ allowlist: ACTIVITY_DETAIL_ALLOWLIST, readableWorkflowId: READABLE_WORKFLOW_ID }),
    stops: new ActivityStops(),
    cpu,
    workerIdentity: newWorkerIdentity(),
    activitySlots: capacity.remoteActivitySlots,
    pipeline: pipelineOf(shared.options),
    log: (m) => log(`batch activities: ${m}`),
  });
  onStop('batch activities', async () => {
    await built.close();
    await cpu.close();
  });
  // Warmed like the streaming worker (createJobctrlWorker's warm-up), so neither ordering pays a cold start.
  const warmStart = Date.now();
  await Promise.all([warmDetailCapture({ cpu }), built.enrichment.renderer?.warm?.()]);
  log(`batch: activities warmed in ${secs(Date.now() - warmStart)} (${cpu.stats().threads} CPU threads)`);
  const acts = built.activities;
  const jobs = new JobRepository(db.uow);
  const runId = randomUUID();
  const taskQueue = `bench-batch-direct-${runId}`;
  const entries: TimelineEntry[] = [];
  let t0 = 0;

  /** One activity call in its own activity context, recorded for the timeline. */
  const call = async <A, R>(type: string, fn: (input: A) => Promise<R>, input: A): Promise<R> => {
    const entry: TimelineEntry = { type, scheduled: Date.now() - t0, attempt: 1 };
    entries.push(entry);
    const env = new MockActivityEnvironment({ activityType: type, taskQueue, workflowExecution: { workflowId: `bench-batch-${runId}`, runId } });
    try {
      const value = (await env.run(fn as (input: A) => Promise<R>, input)) as R;
      Object.assign(entry, { closed: Date.now() - t0, outcome: 'completed' });
      return value;
    } catch (err) {
      Object.assign(entry, { closed: Date.now() - t0, outcome: `failed: ${describe(err)}` });
      throw err;
    }
  };

  const body = async () => {
    const plan = await call('planDiscoverySources', acts.planDiscoverySources, { runId });
    const familiesFailed: Array<{ family: string; error: string }> = [];
    for (const family of plan.families) {
      try {
        await call('discoverySourceFamily', acts.discoverySourceFamily, { runId, family, internalConcurrency: plan.internalConcurrency });
      } catch (err) {
        familiesFailed.push({ family: family.family, error: describe(err) });
      }
    }
    const enrichment = await call('discoveryEnrichment', acts.discoveryEnrichment, { runId, mode: 'terminal', perJobHandoff: false, internalConcurrency: plan.internalConcurrency });
    const jobKeys = (await jobs.selectPendingPreparation({ runId, includePendingTailor: false })).map((j) => j.jobKey);
    let next = 0;
    const lanes = Array.from({ length: Math.max(1, Math.min(shared.options.slots, jobKeys.length)) }, async () => {
      while (next < jobKeys.length) await call('scoreJob', acts.scoreJob, { jobKey: jobKeys[next++] });
    });
    await Promise.all(lanes);
    return { runId, familiesFailed, enrichment, scored: jobKeys.length };
  };

  log(`batch: direct activity calls (MockActivityEnvironment), run ${runId}`);
  const result = await measure(shared, 'batch', db, undefined, async () => {
    t0 = Date.now();
    const outcome = body();
    outcome.catch(() => undefined); // observed by measure()
    return { id: `batch run ${runId}`, result: outcome, timeline: async () => entries };
  });
  const wf = result.workflowResult as { familiesFailed: unknown[] };
  if (wf.familiesFailed.length > 0) log(`batch: families failed: ${JSON.stringify(wf.familiesFailed)}`);
  await stopNamed('batch activities');
  return { ...result, requests: requestCounts(shared) };
}

/** 2b. The baseline as a workflow: the same activities in strict batch order (batch-discover.workflow.ts) on a worker. */
async function runBatchWorkflow(shared: Shared): Promise<PhaseResult> {
  const db = await freshDb(shared, 'batch');
  const { taskQueue, worker } = await startWorker(shared, 'batch', db);
  const runId = randomUUID();
  const workflowId = `bench-batch-${runId}`;
  log(`batch: batchDiscoverWorkflow ${workflowId} on ${taskQueue}`);
  const input: BatchDiscoverInput = { runId, slots: shared.options.slots };
  const result = await measure(shared, 'batch', db, worker, async () =>
    workflowRun(await shared.client.workflow.start('batchDiscoverWorkflow', { taskQueue, workflowId, args: [input] })),
  );
  const wf = result.workflowResult as BatchDiscoverResult;
  if (wf.familiesFailed.length > 0) log(`batch: families failed: ${JSON.stringify(wf.familiesFailed)}`);
  await stopNamed('batch worker');
  return { ...result, requests: requestCounts(shared) };
}

/** Detail pages (/jobs/…, /private/…), robots.txt and board listings the simulator answered since the ordering started. */
function requestCounts(shared: Shared): PhaseResult['requests'] {
  const counts = { total: 0, detail: 0, robots: 0, listing: 0 };
  for (const [p, n] of Object.entries(shared.sim.stats().requests)) {
    counts.total += n;
    if (p === '/robots.txt') counts.robots += n;
    else if (p.startsWith('/jobs/') || p.startsWith('/private/')) counts.detail += n;
    else counts.listing += n;
  }
  return counts;
}

const ratio = (a: number, b: number) => (b > 0 ? Math.round((a / b) * 100) / 100 : null);

export async function runBench(options: BenchOptions): Promise<Record<string, unknown>> {
  const benchStart = Date.now();
  const loadStart = os.loadavg()[0];
  const families = FAMILIES.slice(0, options.families);
  log(
    `families ${families.map((f) => f.kind).join(',')} × ${options.jobs} jobs, latency ${options.latencyMs} ms, slots ${options.slots}, seed ${options.seed}; ` +
      `UV_THREADPOOL_SIZE ${process.env['UV_THREADPOOL_SIZE']}, ${os.cpus().length} CPUs, load ${loadStart.toFixed(2)}`,
  );
  if (loadStart > os.cpus().length) log(`warning: the 1-minute load average (${loadStart.toFixed(2)}) exceeds the CPU count; timings will be noisy`);
  const baseline = resolveBaseline(options.baseline);
  log(`batch baseline: ${baseline === 'direct' ? 'direct activity calls in MockActivityEnvironment' : 'batch-discover.workflow.ts on a worker'}`);

  const { server, connection, client } = await startTemporal();

  // One simulator per repetition, shared by both orderings. A repetition cannot reuse the previous
  // one: job identity includes the URL, so the same postings would map to the same prep-{key} workflow
  // ids, which the dev server already holds as completed — the product then (rightly) refuses to
  // prepare them again and the fresh database's jobs would never be scored. A new port = new URLs.
  const startSim = async () => {
    const sim = await startBoardSimulator({
      seed: options.seed,
      jobsPerBoard: options.jobs,
      families: families.map((f) => ({ kind: f.kind, token: f.token })),
      knobs: { latencyMs: options.latencyMs },
      detailHost: !options.singleHost,
    });
    onStop('board simulator', () => sim.stop());
    return sim;
  };
  let sim = await startSim();
  const manifest = sim.manifest();
  // Reposts are merged into their original; content-key dedup may also merge two postings that happen
  // to share company, title and location, so the stored count can be a little lower still.
  const notReposts = manifest.jobs.filter((j) => j.repostOf === null).length;
  log(`board simulator at ${sim.url} (job pages at ${sim.detailUrl}): ${manifest.jobs.length} postings, ${notReposts} of them not reposts`);

  // Bundled once, before any clock starts.
  const bundleStart = Date.now();
  const entry = workflowsEntry();
  const bundlerLogger = new DefaultLogger('WARN');
  const bundles: Shared['bundles'] = {
    streaming: await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook as never, logger: bundlerLogger }),
    batch:
      baseline === 'workflow'
        ? await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'batch-discover.workflow.ts'), webpackConfigHook: entry.webpackConfigHook as never, logger: bundlerLogger })
        : undefined,
  };
  log(`workflow bundles ready in ${secs(Date.now() - bundleStart)}`);

  const runs: Array<Record<PhaseName, PhaseResult>> = [];
  for (let i = 0; i < options.repeat; i++) {
    if (i > 0) {
      await stopNamed('board simulator');
      sim = await startSim();
    }
    if (options.repeat > 1) log(`repetition ${i + 1}/${options.repeat} (simulator at ${sim.url})`);
    const shared: Shared = { options, sim, connection, client, bundles, baseline, serverPid: server.pid };
    const results = {} as Record<PhaseName, PhaseResult>;
    for (const phase of options.order) {
      if (phase === 'streaming') results.streaming = await runStreaming(shared);
      else results.batch = baseline === 'direct' ? await runBatchDirect(shared) : await runBatchWorkflow(shared);
    }
    runs.push(results);
    const { streaming: s, batch: b } = results;
    log(`TTFS streaming ${secs(s.ttfsMs)} vs batch ${secs(b.ttfsMs)} (×${ratio(b.ttfsMs, s.ttfsMs)}); all scored ${secs(s.totalMs)} vs ${secs(b.totalMs)}`);
    // Same data, same dedup rules: both orderings must end with the same jobs, every one scored.
    if (s.jobs !== b.jobs) log(`warning: streaming stored ${s.jobs} jobs, batch ${b.jobs}`);
  }

  // With --repeat N the headline numbers are medians over the repetitions (N = 1: the one run).
  const med = (phase: PhaseName, key: 'ttfsMs' | 'totalMs' | 'workflowMs' | 'discoveredMs') => median(runs.map((r) => r[phase][key]));
  const ttfs = med('streaming', 'ttfsMs');
  const batchTtfs = med('batch', 'ttfsMs');
  const total = med('streaming', 'totalMs');
  const batchTotal = med('batch', 'totalMs');
  const last = runs[runs.length - 1];
  const cpuMedian = (phase: PhaseName, key: 'utilisation' | 'cpu_s') => {
    const values = runs.map((r) => r[phase].cpu?.[key]).filter((v): v is number => v !== undefined);
    return values.length === runs.length ? medianOf(values) : null;
  };
  const cpuS = cpuMedian('streaming', 'cpu_s');
  if (options.repeat > 1) log(`median over ${options.repeat}: TTFS streaming ${secs(ttfs)} vs batch ${secs(batchTtfs)} (×${ratio(batchTtfs, ttfs)}); all scored ${secs(total)} vs ${secs(batchTotal)}`);

  return {
    bench: 'discover',
    families: options.families,
    family_kinds: families.map((f) => f.kind),
    jobs: options.jobs,
    latency_ms: options.latencyMs,
    slots: options.slots,
    seed: options.seed,
    repeat: options.repeat,
    order: options.order,
    baseline,
    internal_concurrency: INTERNAL_CONCURRENCY,
    detail_host: options.singleHost ? 'same as the boards' : 'own host',
    browser: options.browser,
    postings: manifest.jobs.length,
    postings_not_reposts: notReposts,
    jobs_streaming: last.streaming.jobs,
    jobs_batch: last.batch.jobs,
    scored_streaming: last.streaming.scored,
    scored_batch: last.batch.scored,
    ttfs_ms: ttfs,
    batch_ttfs_ms: batchTtfs,
    total_ms: total,
    batch_total_ms: batchTotal,
    ttfs_ratio: ratio(batchTtfs, ttfs),
    // The repetition whose streaming TTFS is the median (the lower middle one for an even count).
    first_score: [...runs].sort((x, y) => x.streaming.ttfsMs - y.streaming.ttfsMs)[Math.floor((runs.length - 1) / 2)].streaming.firstScore ?? null,
    total_ratio: ratio(batchTotal, total),
    // Whether the orderings were CPU-bound (utilisation near 1: every core busy until the last score),
    // and the most total_ratio could be with streaming's own CPU work on every core without a gap:
    // batch total ÷ (streaming CPU-s ÷ cores). Overlap cannot shorten a CPU-bound ordering; only less
    // work can.
    cpu_utilisation: cpuMedian('streaming', 'utilisation'),
    batch_cpu_utilisation: cpuMedian('batch', 'utilisation'),
    cpu_s: cpuS,
    batch_cpu_s: cpuMedian('batch', 'cpu_s'),
    total_ratio_cpu_ceiling: cpuS ? ratio(batchTotal, (cpuS * 1000) / os.cpus().length) : null,
    workflow_ms: med('streaming', 'workflowMs'),
    batch_workflow_ms: med('batch', 'workflowMs'),
    discovered_ms: med('streaming', 'discoveredMs'),
    batch_discovered_ms: med('batch', 'discoveredMs'),
    enrichment_streaming: last.streaming.enrichment,
    enrichment_batch: last.batch.enrichment,
    requests_streaming: last.streaming.requests,
    requests_batch: last.batch.requests,
    runs: runs.map(({ streaming: s, batch: b }) => ({
      ttfs_ms: s.ttfsMs,
      batch_ttfs_ms: b.ttfsMs,
      total_ms: s.totalMs,
      batch_total_ms: b.totalMs,
      ttfs_ratio: ratio(b.ttfsMs, s.ttfsMs),
      total_ratio: ratio(b.totalMs, s.totalMs),
      cpu: s.cpu ?? null,
      batch_cpu: b.cpu ?? null,
      first_scored_enrichment: s.firstScoredEnrichment,
      first_score: s.firstScore ?? null,
      batch_first_scored_enrichment: b.firstScoredEnrichment,
      ...(options.keepDbs ? { database_streaming: s.databasePath, database_batch: b.databasePath } : {}),
    })),
    temporal_cli: server.version,
    cpus: os.cpus().length,
    loadavg_start: Math.round(loadStart * 100) / 100,
    loadavg_end: Math.round(os.loadavg()[0] * 100) / 100,
    bench_wall_ms: Date.now() - benchStart,
  };
}

/** direct needs @temporalio/testing (MockActivityEnvironment); without it the baseline runs as a workflow. */
function resolveBaseline(mode: BaselineMode): Exclude<BaselineMode, 'auto'> {
  let installed = true;
  try {
    require.resolve('@temporalio/testing');
  } catch {
    installed = false;
  }
  if (mode === 'direct' && !installed) throw new Error('--baseline direct needs @temporalio/testing, which is not installed');
  if (mode === 'auto') return installed ? 'direct' : 'workflow';
  return mode;
}

function median(values: number[]): number {
  return Math.round(medianOf(values));
}

/** The middle value (the mean of the two middle ones for an even count), unrounded. */
function medianOf(values: number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The command: runs the bench, stops everything it started (also on error and SIGINT/SIGTERM), prints the JSON last. */
export function runBenchCommand(options: BenchOptions): void {
  runCommand(() => runBench(options));
}
