import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { isGrpcServiceError, WorkflowNotFoundError, type WorkflowHandle } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { contentKey, DISCOVERY_ENTITIES, idempotencyKey, jobKey } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES } from '@jobctrl/operations';
import { JobPipelineInput, JobPipelineResult, PIPELINE_WORKFLOW_TYPE, pipelineWorkflowId, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository, type ObservedPosting } from '@jobctrl/shared/jobs';
import { spendDay, SpendLedgerRepository } from '@jobctrl/shared/llm';
import { startLlmSimulator, type LlmSimulator } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { createJobctrlWorker, workflowsEntry } from '../../apps/worker/src/create-worker';
import { createPipelineResponder } from '../../apps/worker/src/test-support/llm-responder';
import { awaitWorkflowResult, log, machineCpu, machineCpuBetween, onStop, processCpuMs, runCommand, runWorker, secs, startTemporal, type BenchTemporal, type WorkerRun } from './bench-support';
import type { PreparationSettings } from '../../apps/worker/src/activities';
import { SIMULATOR_HOST_POLICY } from '../../apps/worker/src/test-support/simulator-host-policy';

/**
 * `npm run bench:prepare` (flags: prepare.bench.ts): the preparation stages (score → tailor → cover
 * letter → factual + quality review pair) of N enriched jobs, run by the product's JobPipelineWorkflow
 * (the JobPipelineWorkflow batch coordinator starting prep-{key} workflows, C at a time) on a real worker built
 * by createJobctrlWorker with S remote activity slots, against the LLM simulator answering every call
 * after L ms (apps/worker/src/test-support/llm-responder.ts: valid answers, every job ends prepared).
 * One in-memory Temporal dev server, one fresh SQLite database holding the sample profile.
 *
 * The question: how close does the pipeline get to S model calls always in flight?
 *   ideal_ms = model_calls × L / S, efficiency = ideal_ms / wall_ms (wall: the pipeline workflow's
 *   start call → its result; bundling and worker start come before the clock).
 * Per job above the threshold: 5 model calls in 4 activities (the review pair runs its two calls at
 * once inside one reviewCoverLetter activity). What keeps efficiency below 1 is reported alongside:
 * per activity type the mean running time (vs. L) and the mean wait for a slot, and the share of
 * slot-time the activities held (`slot_utilisation`, the coordinator's short control activities
 * included; `stage_slot_utilisation` leaves them out). The coordinator itself is the workflow: it
 * waits on timers and done signals and holds no slot.
 */
export interface PrepareBenchOptions {
  jobs: number;
  latencyMs: number;
  slots: number;
  /** Jobs in preparation at once (the batch's internalConcurrency). */
  concurrency: number;
  timeoutS: number;
  keepDb: boolean;
}

/** The simulated model is priced, so the spend ledger does real arithmetic; the ceiling never stops it. */
const PRICES = { bench: { input_usd_per_mtok: 1, output_usd_per_mtok: 4 } };

export interface Db {
  dir: string;
  databasePath: string;
  uow: UnitOfWorkFactory;
}

/** A fresh migrated SQLite database holding the sample profile (also bench:rescore's). */
export async function freshDb(keep: boolean, name = 'prepare'): Promise<Db> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `jobctrl-bench-${name}-`));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  if (keep) log(`database ${databasePath} (kept)`);
  else onStop('database dir', async () => fs.rmSync(dir, { recursive: true, force: true }));
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] });
  await new ProfileRepository(uow).put(sampleProfile());
  return { dir, databasePath, uow };
}

// Postings the sample profile (TypeScript, Go, PostgreSQL, Kubernetes, Terraform, Kafka, AWS, ...) fits.
const COMPANIES = ['Lumen Payments', 'Orbital Freight', 'Harbor Health', 'Cobalt Energy', 'Fernway Travel', 'Quill Learning', 'Meridian Insurance', 'Tidepool Analytics', 'Brightline Retail', 'Summit Logistics'];
const TITLES = ['Senior Backend Engineer', 'Platform Engineer', 'Staff Software Engineer, Payments', 'Backend Developer (Go)', 'Senior Platform Engineer', 'Software Engineer, Data Infrastructure', 'Site Reliability Engineer', 'Senior Software Engineer, Billing'];
const LOCATIONS = ['Toronto, ON', 'Remote (Canada)', 'Waterloo, ON', 'Vancouver, BC'];
const ASKS = [
  'You will run our Kubernetes clusters and manage AWS with Terraform.',
  'You will scale the Kafka event backbone that every product team publishes to.',
  'We value experience with PostgreSQL at scale: partitioning, query plans and migrations.',
  'Our services are written in TypeScript on Node.js, with a few performance-critical ones in Go.',
  'You will design GraphQL APIs for our customer dashboard and partner integrations.',
  'You will own the billing pipeline end to end, from metering events to invoices.',
  'We are moving the last services off a monolith and onto containers.',
  'You will improve on-call health: runbooks, alerts that matter and fewer pages.',
];

/** N postings stored as observed and enriched, so every job is pending_score (what a discovery run leaves behind). */
export async function seedJobs(uow: UnitOfWorkFactory, runId: string, n: number): Promise<Array<{ jobKey: string; idempotencyKey: string }>> {
  const postings: ObservedPosting[] = [];
  for (let i = 0; i < n; i++) {
    // Mixed radix over company × title × location, so no two postings share a content key (company +
    // title + location: the store would merge them); past the 320 combinations a requisition number.
    const combos = COMPANIES.length * TITLES.length * LOCATIONS.length;
    const company = COMPANIES[i % COMPANIES.length];
    const baseTitle = TITLES[Math.floor(i / COMPANIES.length) % TITLES.length];
    const title = i < combos ? baseTitle : `${baseTitle} (requisition ${Math.floor(i / combos) + 1})`;
    const location = LOCATIONS[Math.floor(i / (COMPANIES.length * TITLES.length)) % LOCATIONS.length];
    // The run id in the URL keeps job keys (and so prep-{key} workflow ids) unique per bench run.
    const url = `https://jobs.bench.example/${runId}/${i}`;
    const identity = { url, company, title, location };
    const asks = [0, 1, 2].map((k) => ASKS[(i + k * 3) % ASKS.length]);
    const descriptionText = [
      `${company} is hiring a ${title} to join its platform group.`,
      ...asks,
      'You will work closely with product engineers and take part in the on-call rotation.',
      `Posting ${i + 1} of this bench.`,
    ].join('\n');
    postings.push({
      jobKey: jobKey(identity),
      idempotencyKey: idempotencyKey(identity),
      contentKey: contentKey(identity),
      canonicalUrl: url,
      sourceId: 'bench',
      sourceKind: 'bench',
      externalId: String(i),
      title,
      company,
      location,
      remote: location.startsWith('Remote'),
      url,
      applyUrl: null,
      descriptionHtml: null,
      descriptionText,
      postedAt: null,
      salaryText: null,
      employmentType: 'full_time',
      tags: [],
    });
  }
  const jobs = new JobRepository(uow);
  const { inserted } = await jobs.recordObservations(runId, 'bench', postings);
  if (inserted !== n) throw new Error(`seeding stored ${inserted} jobs, expected ${n} (content-key collisions?)`);
  for (const p of postings) await jobs.recordEnrichment(p.jobKey, { status: 'enriched', method: 'bench', descriptionText: p.descriptionText });
  return postings.map((p) => ({ jobKey: p.jobKey, idempotencyKey: p.idempotencyKey }));
}

export async function stageCounts(uow: UnitOfWorkFactory): Promise<Record<string, number>> {
  const rows: Array<{ k: string; n: number }> = await uow.run(({ manager }) => manager.query(`SELECT stage AS k, COUNT(*) AS n FROM jobs GROUP BY stage ORDER BY stage`));
  return Object.fromEntries(rows.map((r) => [r.k, Number(r.n)]));
}

/** How the prepared jobs got there: model-written resumes and letters, draft counts. */
async function outputs(uow: UnitOfWorkFactory): Promise<Record<string, number>> {
  const rows: Array<Record<string, number>> = await uow.run(({ manager }) =>
    manager.query(
      `SELECT COUNT(*) AS jobs,
              SUM(json_extract(tailored_resume, '$.method') = 'model' AND json_extract(tailored_resume, '$.fallback') IS NULL) AS model_resumes,
              SUM(json_extract(tailored_resume, '$.fallback') IS NOT NULL) AS resume_fallbacks,
              SUM(json_extract(cover_letter, '$.method') = 'model') AS model_letters,
              MAX(cover_attempts) AS max_cover_drafts
       FROM jobs`,
    ),
  );
  return Object.fromEntries(Object.entries(rows[0]).map(([k, v]) => [k, Number(v ?? 0)]));
}

/** Model calls the simulator answered, by schema, and how many of them were repair turns. */
function callsBySchema(sim: LlmSimulator): { bySchema: Record<string, number>; repairs: number } {
  const bySchema: Record<string, number> = {};
  let repairs = 0;
  for (const r of sim.requests) {
    const format = (r.body?.['response_format'] ?? {}) as { json_schema?: { name?: string } };
    const name = format.json_schema?.name ?? '?';
    bySchema[name] = (bySchema[name] ?? 0) + 1;
    const messages = Array.isArray(r.body?.['messages']) ? (r.body['messages'] as Array<{ role?: string }>) : [];
    if (messages.some((m) => m.role === 'assistant')) repairs += 1;
  }
  return { bySchema, repairs };
}

type History = Awaited<ReturnType<WorkflowHandle['fetchHistory']>>;
const eventMs = (t: { seconds?: unknown; nanos?: number | null } | null | undefined) => (t ? Number(t.seconds ?? 0) * 1000 + Math.round((t.nanos ?? 0) / 1e6) : 0);

interface ActivityTiming {
  type: string;
  scheduled: number;
  started?: number;
  closed?: number;
}

/** The remote activity executions of one workflow history (server clock, ms since epoch). */
function activityTimings(history: History): ActivityTiming[] {
  const byId = new Map<string, ActivityTiming>();
  for (const e of history.events ?? []) {
    const at = eventMs(e.eventTime);
    if (e.activityTaskScheduledEventAttributes) {
      byId.set(String(e.eventId), { type: e.activityTaskScheduledEventAttributes.activityType?.name ?? '?', scheduled: at });
      continue;
    }
    const started = e.activityTaskStartedEventAttributes;
    if (started) {
      const a = byId.get(String(started.scheduledEventId));
      if (a) a.started = at;
      continue;
    }
    const closedId =
      e.activityTaskCompletedEventAttributes?.scheduledEventId ??
      e.activityTaskFailedEventAttributes?.scheduledEventId ??
      e.activityTaskTimedOutEventAttributes?.scheduledEventId ??
      e.activityTaskCanceledEventAttributes?.scheduledEventId;
    const a = closedId !== undefined && closedId !== null ? byId.get(String(closedId)) : undefined;
    if (a) a.closed = at;
  }
  return [...byId.values()];
}

interface ExecutionTiming {
  /** First event → last event (server clock). */
  ms: number;
  workflowTasks: number;
  /** Summed scheduled → completed of its workflow tasks (queueing plus the worker's processing). */
  workflowTaskMs: number;
  /** Local activities (the spend preflight, lifecycle writes): markers in the history. */
  localActivities: number;
}

/** One workflow execution's own time and how much of it went to workflow tasks. */
function executionTiming(history: History): ExecutionTiming {
  const events = history.events ?? [];
  const scheduled = new Map<string, number>();
  let workflowTaskMs = 0;
  let workflowTasks = 0;
  let localActivities = 0;
  for (const e of events) {
    const at = eventMs(e.eventTime);
    if (e.workflowTaskScheduledEventAttributes) scheduled.set(String(e.eventId), at);
    const completed = e.workflowTaskCompletedEventAttributes;
    if (completed) {
      workflowTasks += 1;
      workflowTaskMs += at - (scheduled.get(String(completed.scheduledEventId)) ?? at);
    }
    if (e.markerRecordedEventAttributes?.markerName === 'core_local_activity') localActivities += 1;
  }
  const first = events.length ? eventMs(events[0].eventTime) : 0;
  const last = events.length ? eventMs(events[events.length - 1].eventTime) : 0;
  return { ms: last - first, workflowTasks, workflowTaskMs, localActivities };
}

/**
 * Where the time went, from the histories (server clock): per activity type the mean time running
 * (started → closed) and waiting for a slot (scheduled → started), and how busy the S remote
 * activity slots were over the batch (every execution's running time / (S × wall)).
 */
export async function slotReport(handles: WorkflowHandle[], pipeline: WorkflowHandle, slots: number, wallMs: number, opts: { absentOk?: boolean } = {}) {
  const timings: ActivityTiming[] = [];
  const executions: ExecutionTiming[] = [];
  const queue = [...handles];
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      for (let h = queue.shift(); h; h = queue.shift()) {
        // absentOk: a batch that prepared its jobs inside its own activity started no workflow for them.
        const history = await h.fetchHistory().catch((err: unknown) => {
          // GetWorkflowExecutionHistory answers gRPC NOT_FOUND (5) rather than the SDK's own error.
          if (opts.absentOk && (err instanceof WorkflowNotFoundError || (isGrpcServiceError(err) && err.code === 5))) return undefined;
          throw err;
        });
        if (!history) continue;
        timings.push(...activityTimings(history));
        executions.push(executionTiming(history));
      }
    }),
  );
  const meanOf = (f: (x: ExecutionTiming) => number) => (executions.length ? Math.round((executions.reduce((s, x) => s + f(x), 0) / executions.length) * 10) / 10 : 0);
  const batch = activityTimings(await pipeline.fetchHistory());
  const all = [...timings, ...batch];
  const byType: Record<string, { count: number; mean_run_ms: number; mean_wait_ms: number }> = {};
  for (const type of [...new Set(all.map((a) => a.type))].sort()) {
    const of = all.filter((a) => a.type === type && a.started !== undefined && a.closed !== undefined);
    const mean = (xs: number[]) => (xs.length ? Math.round(xs.reduce((s, x) => s + x, 0) / xs.length) : 0);
    byType[type] = {
      count: of.length,
      mean_run_ms: mean(of.map((a) => (a.closed as number) - (a.started as number))),
      mean_wait_ms: mean(of.map((a) => (a.started as number) - a.scheduled)),
    };
  }
  const busy = (xs: ActivityTiming[]) => xs.reduce((s, a) => s + (a.started !== undefined && a.closed !== undefined ? a.closed - a.started : 0), 0);
  return {
    activities: byType,
    /** Share of slot-time any remote activity held (the coordinator's short control activities included). */
    slot_utilisation: Math.round((busy(all) / (slots * wallMs)) * 1000) / 1000,
    /**
     * The same without the coordinator's control activities: slot-time spent on the stages themselves
     * (in the jobs' own workflows, or in the batch's inline preparation calls).
     */
    stage_slot_utilisation: Math.round((busy([...timings, ...batch.filter((a) => a.type === 'prepareTargetsExtractive')]) / (slots * wallMs)) * 1000) / 1000,
    /** The per-job preparation executions: their own length, workflow tasks and local activities (means). */
    prep_workflows: {
      count: executions.length,
      mean_ms: meanOf((x) => x.ms),
      mean_workflow_tasks: meanOf((x) => x.workflowTasks),
      mean_workflow_task_ms: meanOf((x) => (x.workflowTasks ? x.workflowTaskMs / x.workflowTasks : 0)),
      mean_local_activities: meanOf((x) => x.localActivities),
    },
  };
}

/**
 * A product worker (createJobctrlWorker, workerCapacity(slots)) on its own task queue, its workflow
 * bundle built first (before any clock starts); stopped with everything else.
 */
export async function startBenchWorker(o: {
  connection: BenchTemporal['connection'];
  taskQueue: string;
  slots: number;
  concurrency: number;
  uow: UnitOfWorkFactory;
  preparation: PreparationSettings;
}): Promise<WorkerRun> {
  const bundleStart = Date.now();
  const entry = workflowsEntry();
  const workflowBundle = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook as never, logger: new DefaultLogger('WARN') });
  log(`workflow bundle ready in ${secs(Date.now() - bundleStart)}`);
  const jw = await createJobctrlWorker({
    connection: o.connection,
    namespace: 'default',
    taskQueue: o.taskQueue,
    capacity: workerCapacity(o.slots),
    uow: o.uow,
    workflowBundle,
    pipeline: { internalConcurrency: o.concurrency, hostPolicy: SIMULATOR_HOST_POLICY, preparation: o.preparation },
  });
  return runWorker('worker', jw);
}

/**
 * Counts the SQLite units of work (each a connection opened, used and closed) that go through this
 * factory, and the time they took (their await, so queueing on libuv's threads and the writer turn
 * included); from `start()` on. The worker, its activities and the review leaves all use it.
 */
export function countUnits(uow: UnitOfWorkFactory): { start(): void; read(): { units: number; ms: number } } {
  const run = uow.run.bind(uow);
  let on = false;
  let units = 0;
  let ms = 0;
  uow.run = <T>(fn: Parameters<UnitOfWorkFactory['run']>[0]): Promise<T> => {
    if (!on) return run(fn) as Promise<T>;
    units += 1;
    const t = performance.now();
    return (run(fn) as Promise<T>).finally(() => (ms += performance.now() - t));
  };
  return { start: () => (on = true), read: () => ({ units, ms }) };
}

const perJob = (x: number, jobs: number) => Math.round((x / jobs) * 10) / 10;

/**
 * What one job cost, besides its model calls (less load-sensitive than wall time: CPU, not
 * waiting): bench:prepare's and bench:rescore's `per_job`. `slots` (the histories' breakdown) and
 * `batchHistory` are optional so a quick run that skips reading the histories still gets CPU and SQLite.
 */
export function perJobBreakdown(o: {
  jobs: number;
  workerCpuMs: number;
  serverCpuMs: number | undefined;
  sqlite: { units: number; ms: number };
  slots?: Awaited<ReturnType<typeof slotReport>>;
  batchHistory?: History;
  modelCalls: number;
}): Record<string, number> {
  const batchTasks = (o.batchHistory?.events ?? []).filter((e) => e.workflowTaskCompletedEventAttributes).length;
  return {
    /** This process: the worker (its JavaScript, Temporal core threads, SQLite) and the bench. */
    worker_cpu_ms: perJob(o.workerCpuMs, o.jobs),
    /** The Temporal dev server's (another process, from /proc). */
    ...(o.serverCpuMs !== undefined ? { server_cpu_ms: perJob(o.serverCpuMs, o.jobs), cpu_ms: perJob(o.workerCpuMs + o.serverCpuMs, o.jobs) } : {}),
    /** SQLite units of work (connection opened, used, closed) and their summed await. */
    sqlite_units: perJob(o.sqlite.units, o.jobs),
    sqlite_unit_ms: perJob(o.sqlite.ms, o.jobs),
    ...(o.slots
      ? {
          /**
           * Workflow tasks: the jobs' own prep-{key} workflows plus the batch coordinator's, per job (a
           * batch that prepares its jobs inside its own activity starts a workflow only for a deferred job).
           */
          workflow_tasks: Math.round(((o.slots.prep_workflows.mean_workflow_tasks * o.slots.prep_workflows.count + batchTasks) / o.jobs) * 10) / 10,
          /** Remote activities (each a dispatch through the server and a slot) and local ones (the spend preflight). */
          remote_activities: perJob(Object.values(o.slots.activities).reduce((n, a) => n + a.count, 0), o.jobs),
          /** The jobs' own prep workflows' local activities plus the batch's (its budget checks), per job. */
          local_activities: Math.round(((o.slots.prep_workflows.mean_local_activities * o.slots.prep_workflows.count + localActivitiesOf(o.batchHistory)) / o.jobs) * 10) / 10,
        }
      : {}),
    model_calls: perJob(o.modelCalls, o.jobs),
  };
}

function localActivitiesOf(history: History | undefined): number {
  return (history?.events ?? []).filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity').length;
}

export async function runPrepareBench(o: PrepareBenchOptions): Promise<Record<string, unknown>> {
  const benchStart = Date.now();
  const loadStart = os.loadavg()[0];
  log(
    `${o.jobs} jobs, model latency ${o.latencyMs} ms, slots ${o.slots}, concurrency ${o.concurrency}; ` +
      `UV_THREADPOOL_SIZE ${process.env['UV_THREADPOOL_SIZE']}, ${os.cpus().length} CPUs, load ${loadStart.toFixed(2)}`,
  );
  if (loadStart > os.cpus().length) log(`warning: the 1-minute load average (${loadStart.toFixed(2)}) exceeds the CPU count; timings will be noisy`);

  const { server, connection, client } = await startTemporal();

  const sim = await startLlmSimulator({ latencyMs: o.latencyMs, respond: createPipelineResponder() });
  onStop('LLM simulator', () => sim.close());
  log(`LLM simulator at ${sim.url}`);

  const db = await freshDb(o.keepDb);
  const runId = randomUUID();
  const keys = (await seedJobs(db.uow, runId, o.jobs)).map((j) => j.idempotencyKey);
  log(`seeded ${keys.length} enriched jobs (pending_score) and the sample profile into ${db.databasePath}`);

  const taskQueue = `bench-prepare-${runId}`;
  const worker = await startBenchWorker({
    connection,
    taskQueue,
    slots: o.slots,
    concurrency: o.concurrency,
    uow: db.uow,
    preparation: {
      llm: { provider: 'openai', model: 'bench', baseUrl: sim.url, prices: PRICES, timeoutMs: 60_000 },
      live: () => ({ dailySpendCeilingUsd: 1e9, tailorScoreThreshold: 60, recoveryIdleMs: 3600_000 }),
    },
  });

  // Only the batch is measured: from the start call to the pipeline workflow's result.
  sim.resetStats();
  const units = countUnits(db.uow);
  units.start();
  const cpu0 = process.cpuUsage();
  const serverCpu0 = processCpuMs(server.pid);
  const machine0 = machineCpu();
  const input: JobPipelineInput = { runId, stages: ['score', 'tailor', 'cover'], scope: 'run', internalConcurrency: o.concurrency };
  const workflowId = pipelineWorkflowId(runId);
  log(`${PIPELINE_WORKFLOW_TYPE} ${workflowId} on ${taskQueue}`);
  const t0 = Date.now();
  const hr0 = process.hrtime.bigint();
  const handle = await client.workflow.start(PIPELINE_WORKFLOW_TYPE, { taskQueue, workflowId, args: [input] });
  const finished = await awaitWorkflowResult<JobPipelineResult>(handle, {
    t0,
    timeoutS: o.timeoutS,
    throwIfStopped: () => worker.throwIfStopped(),
    status: async () => `stages ${JSON.stringify(await stageCounts(db.uow))}, ${sim.requests.length} model calls, ${sim.inFlight} in flight`,
  });
  const wallMs = finished.at - t0;
  if (process.env['PREPARE_BENCH_HRTIME']) log(`hrtime window us ${hr0 / 1000n} ${process.hrtime.bigint() / 1000n}`);
  const cpu = process.cpuUsage(cpu0);
  const serverCpu1 = processCpuMs(server.pid);
  const machine = machineCpuBetween(machine0, machineCpu());
  const sqlite = units.read();
  const modelCalls = sim.requests.length;
  const peak = sim.maxConcurrent;

  const stages = await stageCounts(db.uow);
  const made = await outputs(db.uow);
  const calls = callsBySchema(sim);
  const batch = finished.result.preparation;
  log(`done in ${secs(wallMs)}: stages ${JSON.stringify(stages)}, ${modelCalls} model calls (${JSON.stringify(calls.bySchema)}), peak ${peak} in flight`);
  const prepared = stages['prepared'] ?? 0;
  if (prepared !== o.jobs) {
    throw new Error(`only ${prepared} of ${o.jobs} jobs ended prepared: stages ${JSON.stringify(stages)}, batch ${JSON.stringify(batch)}, outputs ${JSON.stringify(made)}`);
  }

  const slots = await slotReport(
    keys.map((k) => client.workflow.getHandle(prepWorkflowId(k))),
    handle,
    o.slots,
    wallMs,
  );
  for (const [type, t] of Object.entries(slots.activities)) log(`  ${type} ×${t.count}: running ${t.mean_run_ms} ms, waiting for a slot ${t.mean_wait_ms} ms (means)`);
  log(`  remote slots busy ${Math.round(slots.slot_utilisation * 100)}% of S × wall (stages alone ${Math.round(slots.stage_slot_utilisation * 100)}%)`);

  const idealMs = (modelCalls * o.latencyMs) / o.slots;
  const workerCpuMs = (cpu.user + cpu.system) / 1000;
  const serverCpuMs = serverCpu0 !== undefined && serverCpu1 !== undefined ? serverCpu1 - serverCpu0 : undefined;
  const per_job = perJobBreakdown({ jobs: o.jobs, workerCpuMs, serverCpuMs, sqlite, slots, batchHistory: await handle.fetchHistory(), modelCalls });
  log(`per job: ${JSON.stringify(per_job)}`);
  const spend = await new SpendLedgerRepository(db.uow).summary(spendDay());
  return {
    bench: 'prepare',
    jobs: o.jobs,
    latency_ms: o.latencyMs,
    slots: o.slots,
    concurrency: o.concurrency,
    model_calls: modelCalls,
    calls_by_schema: calls.bySchema,
    repair_calls: calls.repairs,
    wall_ms: wallMs,
    ideal_ms: Math.round(idealMs),
    efficiency: Math.round((idealMs / wallMs) * 1000) / 1000,
    ...cpuCeiling(idealMs, machine),
    peak_concurrent_calls: peak,
    /** model_calls × L / wall: the calls in flight on average. */
    mean_concurrent_calls: Math.round(((modelCalls * o.latencyMs) / wallMs) * 100) / 100,
    jobs_per_s: Math.round((o.jobs / (wallMs / 1000)) * 100) / 100,
    prepared,
    stages,
    batch: batch ?? null,
    outputs: made,
    ...slots,
    per_job,
    spend_usd: Math.round(spend.totalUsd * 1e6) / 1e6,
    ...(o.keepDb ? { database: db.databasePath } : {}),
    temporal_cli: server.version,
    cpus: os.cpus().length,
    loadavg_start: Math.round(loadStart * 100) / 100,
    loadavg_end: Math.round(os.loadavg()[0] * 100) / 100,
    bench_wall_ms: Date.now() - benchStart,
  };
}

/**
 * How busy the machine's cores were during the batch, and the most `efficiency` could have been with
 * that CPU work: the batch cannot end before the machine has done it on every core without a gap,
 * so wall ≥ max(ideal, cpu_s ÷ cores) and efficiency ≤ ideal ÷ that. A figure near its ceiling with
 * utilisation near 1 is CPU-bound: only less work per job raises it, not more overlap.
 */
export function cpuCeiling(idealMs: number, machine: ReturnType<typeof machineCpuBetween>): Record<string, number> {
  if (!machine) return {};
  const cpuWallMs = (machine.cpu_s * 1000) / os.cpus().length;
  return {
    cpu_utilisation: machine.utilisation,
    cpu_s: machine.cpu_s,
    efficiency_cpu_ceiling: Math.round((idealMs / Math.max(idealMs, cpuWallMs)) * 1000) / 1000,
  };
}

/** The command: runs the bench, stops everything it started (also on error and SIGINT/SIGTERM), prints the JSON last. */
export function runPrepareBenchCommand(options: PrepareBenchOptions): void {
  runCommand(() => runPrepareBench(options));
}
