import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { bundleWorkflowCode, DefaultLogger, type WorkerOptions } from '@temporalio/worker';
import { DISCOVERY_ENTITIES, SourceRepository, SourceService } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { DISCOVER_WORKFLOW_TYPE, discoverWorkflowId, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import { createJobctrlWorker, workflowsEntry } from '../../apps/worker/src/create-worker';
import { isInterrupted, log, machineCpu, machineCpuBetween, onStop, runCommand, runWorker, secs, sleep, startTemporal, stopNamed, type BenchTemporal } from './bench-support';
import type { ScaleOptions } from './scale-bench.args';
import { SIMULATOR_HOST_POLICY, simulatorSourcePolicy } from '../../apps/worker/src/test-support/simulator-host-policy';

/** No politeness spacing (the bench measures the pipeline, not the host policy); enrichment polls as in bench:discover. */
const pipelineOf = (options: ScaleOptions) => ({
  internalConcurrency: 4,
  hostPolicy: SIMULATOR_HOST_POLICY,
  enrichmentPollMs: 100,
  ...(options.browser ? { browserExecutablePath: options.browser } : {}),
});
/** Polling the jobs table costs the product CPU too; 250 ms is fine-grained enough for runs of seconds. */
const POLL_MS = 250;
const PROGRESS_EVERY_MS = 5000;
/** After the workflow is done, this long without a new score means nothing will score any more. */
const STALL_MS = 60_000;

export interface SizeResult {
  size: number;
  jobs: number;
  scored: number;
  /** t0 (just before the workflow start) until the last job's scored_at. */
  wallMs: number;
  msPerJob: number;
  /** The board's postings (more than jobs: reposts and postings sharing company, title and location merge). */
  postings: number;
  msPerPosting: number;
  /** Until the last job was first stored. */
  discoveredMs: number;
  /** Until the DiscoverWorkflow itself completed. */
  workflowMs: number;
  ttfsMs: number;
  /** Events in the DiscoverWorkflow's history (all runs of it, if it continued as new). */
  historyEvents: number;
  /** Per activity type of the DiscoverWorkflow: calls and summed duration (scheduled → closed). */
  activities: Record<string, { calls: number; ms: number }>;
  enrichment: Record<string, number>;
  /** Where a job's own preparation workflow spends its time (medians over a sample of jobs). */
  prep: PrepBreakdown;
  databasePath: string;
  loadavg: number;
  /**
   * The machine's CPU from t0 until every job was seen scored, per job, and how busy the cores were:
   * whether the work per job grows with the size, apart from the wall time a saturated machine adds.
   */
  cpuMsPerJob: number | null;
  cpuUtilisation: number | null;
}

interface Counts {
  jobs: number;
  scored: number;
  first: number | null;
  last: number | null;
  stored: number | null;
}

async function counts(uow: UnitOfWorkFactory): Promise<Counts> {
  const [r]: Array<Record<keyof Counts, number | null>> = await uow.run(({ manager }) =>
    manager.query(`SELECT COUNT(*) AS jobs, COUNT(scored_at) AS scored, MIN(scored_at) AS first, MAX(scored_at) AS last, MAX(first_seen_at) AS stored FROM jobs`),
  );
  const n = (v: number | null) => (v === null ? null : Number(v));
  return { jobs: Number(r.jobs), scored: Number(r.scored), first: n(r.first), last: n(r.last), stored: n(r.stored) };
}

/**
 * One measured size: one Lever board (its listing pages with skip/limit, so a board of thousands is
 * many small responses; Greenhouse answers in one body, over the adapter's 1 MB limit at 1,000), its own simulator (fresh URLs, so fresh prep-* workflow ids), database and worker. */
async function runSize(options: ScaleOptions, temporal: BenchTemporal, bundle: WorkerOptions['workflowBundle'], size: number): Promise<SizeResult> {
  const sim = await startBoardSimulator({ seed: options.seed, jobsPerBoard: size, families: [{ kind: 'lever', token: 'globex' }], knobs: { latencyMs: options.latencyMs }, detailHost: !options.singleHost });
  onStop('board simulator', () => sim.stop());

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobctrl-bench-scale-${size}-`));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  if (options.keepDbs) log(`${size}: database ${databasePath} (kept)`);
  else onStop('scale database dir', async () => fs.rmSync(dir, { recursive: true, force: true }));
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
  await new SourceService(new SourceRepository(uow), simulatorSourcePolicy()).create({ kind: 'lever', name: 'lever globex', config: { site: 'globex', base_url: sim.url } });

  const taskQueue = `bench-scale-${size}-${randomUUID()}`;
  const jw = await createJobctrlWorker({ connection: temporal.connection, namespace: 'default', taskQueue, capacity: workerCapacity(options.slots), uow, workflowBundle: bundle, pipeline: pipelineOf(options), warmUp: true });
  const worker = runWorker('scale worker', jw);

  const runId = randomUUID();
  const loadavg = os.loadavg()[0];
  log(`${size}: DiscoverWorkflow ${discoverWorkflowId(runId)} (load ${loadavg.toFixed(2)})`);
  const cpu0 = machineCpu();
  const t0 = Date.now();
  const handle = await temporal.client.workflow.start(DISCOVER_WORKFLOW_TYPE, { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
  let done: { at: number; error?: unknown } | undefined;
  handle.result().then(
    () => (done = { at: Date.now() }),
    (error: unknown) => (done = { at: Date.now(), error }),
  );

  const deadline = t0 + options.timeoutS * 1000;
  let lastProgress = t0;
  let lastScored = { n: -1, at: t0 };
  for (;;) {
    if (isInterrupted()) throw new Error(`${size}: interrupted`);
    const c = await counts(uow);
    const now = Date.now();
    if (c.scored !== lastScored.n) lastScored = { n: c.scored, at: now };
    if (done?.error) throw new Error(`${size}: the DiscoverWorkflow failed: ${String(done.error)}`);
    worker.throwIfStopped(String(size));
    if (done && c.jobs > 0 && c.scored === c.jobs && c.first !== null && c.last !== null) {
      const cpu = machineCpuBetween(cpu0, machineCpu());
      const wallMs = c.last - t0;
      const result: SizeResult = {
        size,
        jobs: c.jobs,
        scored: c.scored,
        wallMs,
        msPerJob: Math.round((wallMs / c.jobs) * 100) / 100,
        postings: sim.manifest().jobs.length,
        msPerPosting: Math.round((wallMs / sim.manifest().jobs.length) * 100) / 100,
        discoveredMs: (c.stored ?? t0) - t0,
        workflowMs: done.at - t0,
        ttfsMs: c.first - t0,
        ...(await historyFacts(temporal.client, handle)),
        enrichment: await enrichmentBreakdown(uow),
        prep: await prepBreakdown(temporal.client, uow),
        databasePath,
        loadavg: Math.round(loadavg * 100) / 100,
        cpuMsPerJob: cpu ? Math.round((cpu.cpu_s * 1000 * 100) / c.jobs) / 100 : null,
        cpuUtilisation: cpu?.utilisation ?? null,
      };
      log(
        `${size}: ${result.jobs} jobs (${result.postings} postings) in ${secs(wallMs)} = ${result.msPerJob} ms/job, ${result.msPerPosting} ms/posting, ${result.cpuMsPerJob ?? '?'} CPU-ms/job at ${result.cpuUtilisation === null ? '?' : Math.round(result.cpuUtilisation * 100)}% busy (all stored ${secs(result.discoveredMs)}, workflow ${secs(result.workflowMs)}, TTFS ${secs(result.ttfsMs)}, ${result.historyEvents} history events)`,
      );
      log(`${size}:   activities ${JSON.stringify(result.activities)}`);
      log(`${size}:   per job (prep-* workflow, median of ${result.prep.sampled}): ${JSON.stringify(result.prep)}`);
      await stopNamed('scale worker');
      await stopNamed('board simulator');
      return result;
    }
    if (done && c.jobs === 0) throw new Error(`${size}: the DiscoverWorkflow finished without storing any job`);
    if (done && now - lastScored.at > STALL_MS) throw new Error(`${size}: stalled — workflow done, ${c.scored}/${c.jobs} scored, none for ${STALL_MS / 1000}s`);
    if (now > deadline) throw new Error(`${size}: not finished after ${options.timeoutS}s (${c.scored}/${c.jobs} scored, workflow ${done ? 'done' : 'running'})`);
    if (now - lastProgress >= PROGRESS_EVERY_MS) {
      lastProgress = now;
      log(`${size}: +${secs(now - t0)} ${c.jobs} stored, ${c.scored} scored${done ? ', workflow done' : ''}`);
    }
    await sleep(POLL_MS);
  }
}

type Handle = Awaited<ReturnType<BenchTemporal['client']['workflow']['start']>>;
type History = Awaited<ReturnType<Handle['fetchHistory']>>;

/** History length (every run of the chain) and the DiscoverWorkflow's activity calls by type. */
async function historyFacts(client: BenchTemporal['client'], handle: Handle): Promise<Pick<SizeResult, 'historyEvents' | 'activities'>> {
  const activities: SizeResult['activities'] = {};
  let historyEvents = 0;
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0);
  let runId: string | undefined = (await handle.describe()).runId;
  // Follow continue-as-new back to the first run: history events of every run count.
  const seen = new Set<string>();
  while (runId && !seen.has(runId)) {
    seen.add(runId);
    const history: History = await client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
    const events = history.events ?? [];
    historyEvents += events.length;
    const scheduled = new Map<string, { type: string; at: number }>();
    for (const e of events) {
      const s = e.activityTaskScheduledEventAttributes;
      if (s) scheduled.set(String(e.eventId), { type: s.activityType?.name ?? '?', at: ms(e.eventTime) });
      // Cancelled counts too: the live enrichment consumer ends cancelled when the families are done.
      const closedId =
        e.activityTaskCompletedEventAttributes?.scheduledEventId ??
        e.activityTaskFailedEventAttributes?.scheduledEventId ??
        e.activityTaskTimedOutEventAttributes?.scheduledEventId ??
        e.activityTaskCanceledEventAttributes?.scheduledEventId;
      const a = closedId !== undefined && closedId !== null ? scheduled.get(String(closedId)) : undefined;
      if (a) {
        const entry = (activities[a.type] ??= { calls: 0, ms: 0 });
        entry.calls += 1;
        entry.ms += Math.round(ms(e.eventTime) - a.at);
      }
    }
    runId = events[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId ?? undefined;
  }
  return { historyEvents, activities };
}

interface PrepBreakdown {
  sampled: number;
  history_events: number;
  /** Workflow start → close. */
  workflow_ms: number;
  /** Workflow tasks: scheduled → completed, summed per workflow. */
  workflow_tasks_ms: number;
  /** Activities: scheduled → started (waiting for a slot), summed per workflow. */
  activity_wait_ms: number;
  /** Activities: started → closed, summed per workflow. */
  activity_run_ms: number;
  /** Activity calls per type in one workflow (from the first sampled one). */
  activities: Record<string, number>;
}

/** Up to SAMPLE jobs spread over the run (in score order): their prep-{idempotency_key} histories. */
async function prepBreakdown(client: BenchTemporal['client'], uow: UnitOfWorkFactory): Promise<PrepBreakdown> {
  const SAMPLE = 15;
  const keys: Array<{ k: string }> = await uow.run(({ manager }) => manager.query(`SELECT idempotency_key AS k FROM jobs WHERE scored_at IS NOT NULL ORDER BY scored_at, job_key`));
  const picked = keys.filter((_, i) => i % Math.max(1, Math.floor(keys.length / SAMPLE)) === 0).slice(0, SAMPLE);
  const ms = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds ?? 0) * 1000 + (t.nanos ?? 0) / 1e6 : 0);
  const per: Array<Omit<PrepBreakdown, 'sampled' | 'activities'>> = [];
  let activities: Record<string, number> = {};
  for (const { k } of picked) {
    let history: History;
    try {
      history = await client.workflow.getHandle(prepWorkflowId(k)).fetchHistory();
    } catch {
      continue; // started by an earlier run, or not kept
    }
    const events = history.events ?? [];
    const at = new Map(events.map((e) => [String(e.eventId), ms(e.eventTime)]));
    const one = { history_events: events.length, workflow_ms: ms(events[events.length - 1]?.eventTime) - ms(events[0]?.eventTime), workflow_tasks_ms: 0, activity_wait_ms: 0, activity_run_ms: 0 };
    const types: Record<string, number> = {};
    for (const e of events) {
      const t = ms(e.eventTime);
      if (e.workflowTaskCompletedEventAttributes) one.workflow_tasks_ms += t - (at.get(String(e.workflowTaskCompletedEventAttributes.scheduledEventId)) ?? t);
      if (e.activityTaskScheduledEventAttributes) types[e.activityTaskScheduledEventAttributes.activityType?.name ?? '?'] = (types[e.activityTaskScheduledEventAttributes.activityType?.name ?? '?'] ?? 0) + 1;
      if (e.activityTaskStartedEventAttributes) one.activity_wait_ms += t - (at.get(String(e.activityTaskStartedEventAttributes.scheduledEventId)) ?? t);
      const closed = e.activityTaskCompletedEventAttributes ?? e.activityTaskFailedEventAttributes ?? e.activityTaskTimedOutEventAttributes;
      if (closed) one.activity_run_ms += t - (at.get(String(closed.startedEventId)) ?? t);
    }
    if (per.length === 0) activities = types;
    per.push(one);
  }
  const med = (key: keyof (typeof per)[number]) => {
    const v = per.map((p) => p[key]).sort((a, b) => a - b);
    return v.length === 0 ? 0 : Math.round(v[Math.floor(v.length / 2)]);
  };
  return { sampled: per.length, history_events: med('history_events'), workflow_ms: med('workflow_ms'), workflow_tasks_ms: med('workflow_tasks_ms'), activity_wait_ms: med('activity_wait_ms'), activity_run_ms: med('activity_run_ms'), activities };
}

async function enrichmentBreakdown(uow: UnitOfWorkFactory): Promise<Record<string, number>> {
  const rows: Array<{ k: string; n: number }> = await uow.run(({ manager }) => manager.query(`SELECT enrichment_status AS k, COUNT(*) AS n FROM jobs GROUP BY enrichment_status`));
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

export async function runScale(options: ScaleOptions): Promise<Record<string, unknown>> {
  const benchStart = Date.now();
  const loadStart = os.loadavg();
  log(`sizes ${options.sizes.join(',')}, latency ${options.latencyMs} ms, slots ${options.slots}, seed ${options.seed}; ${os.cpus().length} CPUs, load ${loadStart.map((l) => l.toFixed(2)).join(' ')}`);
  if (loadStart[0] > os.cpus().length) log(`warning: the 1-minute load average (${loadStart[0].toFixed(2)}) exceeds the CPU count; timings will be noisy`);
  log(`detail pages ${options.singleHost ? 'on the listing host' : 'on a job-page host of their own'}; JavaScript-only pages ${options.browser ? `rendered by ${options.browser}` : 'not rendered (they end enrichment failed)'}`);

  const temporal = await startTemporal();
  const bundleStart = Date.now();
  const entry = workflowsEntry();
  const bundle = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook as never, logger: new DefaultLogger('WARN') });
  log(`workflow bundle ready in ${secs(Date.now() - bundleStart)}`);

  // The first run in a process pays for loading the activities' modules and for the JIT; an
  // unmeasured small run takes that, so the smallest size is not charged for it (the ratio would flatter).
  if (options.warmup > 0) {
    log(`warm-up run of ${options.warmup} postings (not measured)`);
    await runSize(options, temporal, bundle, options.warmup);
  }
  const results: SizeResult[] = [];
  for (const size of options.sizes) results.push(await runSize(options, temporal, bundle, size));

  const first = results[0];
  const last = results[results.length - 1];
  const ratio = Math.round((last.msPerJob / first.msPerJob) * 100) / 100;
  log(`ms/job: ${results.map((r) => `${r.size} → ${r.msPerJob}`).join(', ')}; ratio ${last.size}/${first.size} = ${ratio} (target ≤ 1.5)`);
  return {
    bench: 'scale',
    sizes: options.sizes,
    warmup: options.warmup,
    latency_ms: options.latencyMs,
    slots: options.slots,
    seed: options.seed,
    detail_host: options.singleHost ? 'same' : 'own',
    browser: options.browser,
    results: results.map((r) => ({
      size: r.size,
      jobs: r.jobs,
      scored: r.scored,
      wall_ms: r.wallMs,
      ms_per_job: r.msPerJob,
      postings: r.postings,
      ms_per_posting: r.msPerPosting,
      discovered_ms: r.discoveredMs,
      workflow_ms: r.workflowMs,
      ttfs_ms: r.ttfsMs,
      history_events: r.historyEvents,
      activities: r.activities,
      enrichment: r.enrichment,
      prep: r.prep,
      loadavg: r.loadavg,
      cpu_ms_per_job: r.cpuMsPerJob,
      cpu_utilisation: r.cpuUtilisation,
      ...(options.keepDbs ? { database: r.databasePath } : {}),
    })),
    ms_per_job_ratio: ratio,
    ms_per_posting_ratio: Math.round((last.msPerPosting / first.msPerPosting) * 100) / 100,
    // The same ratio for the CPU the machine spent per job: above 1 only if the work per job grows.
    cpu_ms_per_job_ratio: last.cpuMsPerJob && first.cpuMsPerJob ? Math.round((last.cpuMsPerJob / first.cpuMsPerJob) * 100) / 100 : null,
    temporal_cli: temporal.server.version,
    cpus: os.cpus().length,
    loadavg_start: loadStart.map((l) => Math.round(l * 100) / 100),
    loadavg_end: os.loadavg().map((l) => Math.round(l * 100) / 100),
    bench_wall_ms: Date.now() - benchStart,
  };
}

/** The command: runs the bench, stops everything it started (also on error and SIGINT/SIGTERM), prints the JSON last. */
export function runScaleCommand(options: ScaleOptions): void {
  runCommand(() => runScale(options));
}
