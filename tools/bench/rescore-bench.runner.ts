import * as os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { JobPipelineInput, JobPipelineResult } from '@jobctrl/pipeline/contracts';
import { PIPELINE_WORKFLOW_TYPE, pipelineWorkflowId, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { defaultResolvedConfig } from '@jobctrl/shared/config';
import { PreparationRepository } from '@jobctrl/shared/jobs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { awaitWorkflowResult, log, machineCpu, machineCpuBetween, processCpuMs, runCommand, secs, sleep, startTemporal } from './bench-support';
import { countUnits, freshDb, perJobBreakdown, seedJobs, slotReport, stageCounts, startBenchWorker } from './prepare-bench.runner';

/**
 * `npm run bench:rescore` (flags: rescore.bench.ts): what a profile update costs with the extractive
 * provider (no model, no network), through the product's profile-update path. N enriched jobs, each scored against
 * the sample profile's revision, sit in a fresh SQLite file; a product worker (createJobctrlWorker,
 * S slots, provider `extractive`) runs on an in-memory Temporal dev server. The clock starts at the
 * profile update itself — what the runs lib's ProfileService.put does for `PUT /v1/profile` — which
 * stores revision 2 and starts the automatic Score → Tailor → Cover batch (scope profile_update,
 * internal concurrency C: the run's snapshot of pipeline_internal_concurrency). It stops when that
 * batch's JobPipelineWorkflow has returned; then every job must have been re-scored against revision
 * 2 and stand in a final stage (scored below the threshold, or prepared), else the bench exits 1.
 *
 * With no model latency at all, jobs_per_s is the per-job overhead of preparation itself: the batch
 * coordinator, one prep-{key} workflow per job, its one prepareJobExtractive activity (the stages in
 * one activity, no spend preflight: the extractive provider, captured at the job's start) and SQLite.
 * Where it goes is reported from the histories (per activity type running and slot-wait means; per prep
 * workflow its length, workflow tasks and local activities).
 */
export interface RescoreBenchOptions {
  jobs: number;
  slots: number;
  /** pipeline_internal_concurrency as the profile update's run snapshots it. */
  concurrency: number;
  timeoutS: number;
  keepDb: boolean;
  /** Skip reading every history afterwards (the breakdown), for quick runs at large N. */
  noBreakdown: boolean;
}

/** How long the dev server's idle CPU is sampled before the clock starts. */
const IDLE_SAMPLE_MS = 2000;
/** tailor_score_threshold: the schema default, so some jobs stop at scored and the rest are prepared. */
const THRESHOLD = defaultResolvedConfig().settings.tailor_score_threshold;

/** The profile update of the bench: one more skill, so the content (and so the revision) changes. */
function updatedProfile() {
  const profile = sampleProfile();
  return { ...profile, skills: [...profile.skills, 'Rust'] };
}

export async function runRescoreBench(o: RescoreBenchOptions): Promise<Record<string, unknown>> {
  const benchStart = Date.now();
  const loadStart = os.loadavg()[0];
  log(`${o.jobs} jobs, extractive provider, slots ${o.slots}, internal concurrency ${o.concurrency}; ${os.cpus().length} CPUs, load ${loadStart.toFixed(2)}`);
  if (loadStart > os.cpus().length) log(`warning: the 1-minute load average (${loadStart.toFixed(2)}) exceeds the CPU count; timings will be noisy`);

  const { server, connection, client } = await startTemporal();
  const db = await freshDb(o.keepDb, 'rescore');
  const runId = randomUUID();
  const seeded = await seedJobs(db.uow, runId, o.jobs);
  // What an earlier preparation left: each job scored against the current revision (stage scored,
  // so nothing is pending before the update).
  const { revision } = await new ProfileRepository(db.uow).get();
  const prep = new PreparationRepository(db.uow);
  for (const job of seeded) {
    await prep.recordScore(job.jobKey, { score: 0, detail: { seeded: true }, profileRevision: revision, threshold: THRESHOLD }, await prep.fenceOf(job.jobKey));
  }
  log(`seeded ${seeded.length} enriched jobs scored against profile revision ${revision} into ${db.databasePath}`);

  const taskQueue = `bench-rescore-${runId}`;
  const worker = await startBenchWorker({
    connection,
    taskQueue,
    slots: o.slots,
    concurrency: o.concurrency,
    uow: db.uow,
    preparation: {
      llm: { provider: 'extractive', prices: {}, timeoutMs: 60_000 },
      live: () => ({ dailySpendCeilingUsd: 1e9, tailorScoreThreshold: THRESHOLD, recoveryIdleMs: 3600_000 }),
    },
  });

  // What PUT /v1/profile does (libs/runs ProfileService.put → PipelineRunService.startRun): store the
  // new revision, then start the profile update's Score → Tailor → Cover batch with the run's snapshot
  // of pipeline_internal_concurrency. Done here with the same repository and the same workflow input,
  // because a bench may not import the runs feature lib (module boundaries: type:bench); the run
  // registry row the service also writes is left out (the batch ignores runs it does not know).
  const profiles = new ProfileRepository(db.uow);
  // The dev server's own pace with a worker polling and nothing to do (its share that is no job's).
  const idle0 = processCpuMs(server.pid);
  await sleep(IDLE_SAMPLE_MS);
  const idle1 = processCpuMs(server.pid);
  const serverIdleCpuPerS = idle0 !== undefined && idle1 !== undefined ? ((idle1 - idle0) * 1000) / IDLE_SAMPLE_MS : undefined;
  const units = countUnits(db.uow);
  units.start();
  const cpu0 = process.cpuUsage();
  const serverCpu0 = processCpuMs(server.pid);
  const machine0 = machineCpu();
  const t0 = Date.now();
  const stored = await profiles.put(updatedProfile());
  if (!stored.changed) throw new Error('the profile update did not change the profile');
  const batchRunId = randomUUID();
  const input: JobPipelineInput = { runId: batchRunId, stages: ['score', 'tailor', 'cover'], scope: 'profile_update', internalConcurrency: o.concurrency, profileRevision: stored.revision };
  const view = { revision: stored.revision, batch: { runId: batchRunId, workflowId: pipelineWorkflowId(batchRunId) } };
  await client.workflow.start(PIPELINE_WORKFLOW_TYPE, { taskQueue, workflowId: view.batch.workflowId, args: [input] });
  log(`profile revision ${view.revision} saved; batch ${view.batch.workflowId} on ${taskQueue}`);
  const handle = client.workflow.getHandle(view.batch.workflowId);
  const finished = await awaitWorkflowResult<JobPipelineResult>(handle, {
    t0,
    timeoutS: o.timeoutS,
    throwIfStopped: () => worker.throwIfStopped(),
    status: async (elapsedMs) => {
      const c = await revisionCounts(db.uow, view.revision);
      return `${c.rescored} of ${o.jobs} re-scored (${((c.rescored / elapsedMs) * 1000).toFixed(1)} jobs/s), stages ${JSON.stringify(await stageCounts(db.uow))}`;
    },
  });
  const wallMs = finished.at - t0;
  const cpu = process.cpuUsage(cpu0);
  const serverCpu1 = processCpuMs(server.pid);
  const machine = machineCpuBetween(machine0, machineCpu());
  const sqlite = units.read();

  const stages = await stageCounts(db.uow);
  const counts = await revisionCounts(db.uow, view.revision);
  log(`done in ${secs(wallMs)}: ${counts.rescored} re-scored, stages ${JSON.stringify(stages)}, batch ${JSON.stringify(finished.result.preparation)}`);
  const final = (stages['scored'] ?? 0) + (stages['prepared'] ?? 0);
  if (counts.rescored !== o.jobs || final !== o.jobs) {
    throw new Error(`not every job was re-prepared against revision ${view.revision}: ${counts.rescored} re-scored, stages ${JSON.stringify(stages)}`);
  }

  let breakdown: Awaited<ReturnType<typeof slotReport>> | undefined;
  if (!o.noBreakdown) {
    breakdown = await slotReport(
      seeded.map((j) => client.workflow.getHandle(prepWorkflowId(j.idempotencyKey))),
      handle,
      o.slots,
      wallMs,
      { absentOk: true },
    );
    const b = breakdown;
    for (const [type, t] of Object.entries(b.activities)) log(`  ${type} ×${t.count}: running ${t.mean_run_ms} ms, waiting for a slot ${t.mean_wait_ms} ms (means)`);
    log(`  remote slots busy ${Math.round(b.slot_utilisation * 100)}% of S × wall; prep workflows ${JSON.stringify(b.prep_workflows)}`);
  }

  // The same per-job figures as bench:prepare (its status polls and the revision count above are
  // the bench's own units: a few per second, not per job).
  const per_job = perJobBreakdown({
    jobs: o.jobs,
    workerCpuMs: (cpu.user + cpu.system) / 1000,
    serverCpuMs: serverCpu0 !== undefined && serverCpu1 !== undefined ? serverCpu1 - serverCpu0 : undefined,
    sqlite,
    ...(breakdown ? { slots: breakdown, batchHistory: await handle.fetchHistory() } : {}),
    modelCalls: 0,
  });
  log(`per job: ${JSON.stringify(per_job)}`);

  return {
    bench: 'rescore',
    provider: 'extractive',
    jobs: o.jobs,
    slots: o.slots,
    concurrency: o.concurrency,
    profile_revision: view.revision,
    wall_ms: wallMs,
    jobs_per_s: Math.round((o.jobs / (wallMs / 1000)) * 100) / 100,
    /** Per job at C in flight: wall × C / N, the latency of one job's preparation as the batch saw it. */
    ms_per_job_per_lane: Math.round(((wallMs * o.concurrency) / o.jobs) * 10) / 10,
    /** CPU time of this process (the worker, the API's profile service and the bench's polling) over wall_ms; the dev server is another process. */
    process_cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    ...cpuBound(o.jobs, (cpu.user + cpu.system) / 1000, serverCpu0, serverCpu1),
    // Below 1 with jobs_per_s under cpu_bound_jobs_per_s: the lanes wait on round trips (more
    // lanes help); near 1: the cores are the limit (only less work per job helps).
    ...(machine ? { cpu_utilisation: machine.utilisation, cpu_s: machine.cpu_s } : {}),
    ...(serverIdleCpuPerS !== undefined ? { server_idle_cpu_ms_per_s: Math.round(serverIdleCpuPerS) } : {}),
    rescored: counts.rescored,
    stages,
    batch: finished.result.preparation ?? null,
    ...(breakdown ?? {}),
    per_job,
    ...(o.keepDb ? { database: db.databasePath } : {}),
    temporal_cli: server.version,
    cpus: os.cpus().length,
    loadavg_start: Math.round(loadStart * 100) / 100,
    loadavg_end: Math.round(os.loadavg()[0] * 100) / 100,
    bench_wall_ms: Date.now() - benchStart,
  };
}

/**
 * The CPU each job cost this process and the dev server together, and the rate the machine's cores
 * would allow at that cost if no round trip waited at all: the ceiling the lanes cannot pass.
 */
function cpuBound(jobs: number, processMs: number, server0: number | undefined, server1: number | undefined): Record<string, number> {
  if (server0 === undefined || server1 === undefined) return {};
  const perJob = (processMs + server1 - server0) / jobs;
  return {
    server_cpu_ms: Math.round(server1 - server0),
    cpu_ms_per_job: Math.round(perJob * 10) / 10,
    cpu_bound_jobs_per_s: Math.round(((os.cpus().length * 1000) / perJob) * 10) / 10,
  };
}

/** Jobs whose score was written against `revision` (read straight from the table, like stageCounts). */
async function revisionCounts(uow: Awaited<ReturnType<typeof freshDb>>['uow'], revision: number): Promise<{ rescored: number }> {
  const rows: Array<{ n: number }> = await uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM jobs WHERE score_profile_revision = ?`, [revision]));
  return { rescored: Number(rows[0]?.n ?? 0) };
}

/** The command: runs the bench, stops everything it started (also on error and SIGINT/SIGTERM), prints the JSON last. */
export function runRescoreBenchCommand(options: RescoreBenchOptions): void {
  runCommand(() => runRescoreBench(options));
}
