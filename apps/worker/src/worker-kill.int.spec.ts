import * as sqlite3 from 'sqlite3';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import type { JobPipelineInput, JobPipelineResult, JobPreparationResult } from '@jobctrl/pipeline/contracts';
import { PIPELINE_WORKFLOW_TYPE, pipelineWorkflowId, PREPARATION_WORKFLOW_TYPE, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { PreparationRepository } from '@jobctrl/shared/jobs';
import { classifyWorkerReadiness, heartbeatLiveness, parseHeartbeatRow, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { SpendLedgerRepository } from '@jobctrl/shared/llm';
import { startLlmSimulator, type RecordedLlmRequest } from '@jobctrl/shared/llm/testing';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { duplicatePreparations, prepExecutions } from '@jobctrl/tools/temporal';
import { disposeBoardWorld, setupBoardWorld, type BoardWorld } from './test-support/board-world.fixture';
import { createPipelineResponder } from './test-support/llm-responder';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal } from './test-support/temporal.harness';
import { activityRuns, killWorker, pollingIdentity, scheduledActivityTypes, seedEnrichedJob, until, within, writeWorkerAppConfig } from './test-support/worker-app.harness';

// Issue #15's fault suite (`npm run faults`) kills the worker mid-review pair and during a heartbeat
// write against a whole stack; these are the same two faults at the size of `npm test`: one job, the
// real worker app in a child process (kill -9), a new one polling, the real dev server and SQLite.

const address = testTemporalAddress();

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

const REVIEW_SCHEMAS = ['factual_review', 'quality_review'];

function schemaOf(r: RecordedLlmRequest): string {
  const format = r.body?.['response_format'] as { json_schema?: { name?: string } } | undefined;
  return format?.json_schema?.name ?? '';
}

function callsBySchema(requests: RecordedLlmRequest[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of requests) out[schemaOf(r)] = (out[schemaOf(r)] ?? 0) + 1;
  return out;
}

/** 0 jobs lost, 0 duplicate preparations: counted as the fault suite counts them (Temporal visibility). */
async function expectOnePreparation(world: BoardWorld, jobKey: string, idempotencyKey: string, mode: 'score' | 'full'): Promise<void> {
  expect(await world.jobs.get(jobKey)).toBeTruthy();
  const executions = (await prepExecutions(suite.client)).filter((e) => e.workflowId === prepWorkflowId(idempotencyKey));
  expect(executions).toEqual([expect.objectContaining({ status: 'COMPLETED', mode })]);
  expect(duplicatePreparations(executions, new Set([idempotencyKey]))).toMatchObject({ duplicates: 0, failedRetried: 0 });
}

function sqlAll<T>(db: sqlite3.Database, sql: string): Promise<T[]> {
  return new Promise((resolve, reject) => db.all(sql, (err, rows) => (err ? reject(err) : resolve(rows as T[]))));
}

function sqlExec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

describe('kill -9 of the worker app, then a new worker (issue #15 fault cases at npm test size)', () => {
  it('mid-review pair: both review calls held by the model server when the worker dies; after the restart the pair completes once, one accepted review, one recorded call per review step', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    // The model server holds every review answer while the first worker lives: the kill lands with
    // both halves of the pair in flight (the reviews only come back when the client is gone).
    let holdReviews = true;
    const llm = await startLlmSimulator({
      respond: createPipelineResponder(),
      latencyMs: (req) => (holdReviews && REVIEW_SCHEMAS.includes(req.schemaName) ? 600_000 : 0),
    });
    // A short stale window, so the killed worker's in-flight calls are charged soon after the kill.
    const staleMs = 3_000;
    const configPath = writeWorkerAppConfig(world, llm.url, { worker_heartbeat_stale_seconds: staleMs / 1000 });
    await new ProfileRepository(world.uow).put(sampleProfile());
    const idempotencyKey = `review-kill-${world.taskQueue}`;
    await seedEnrichedJob(world, 'j1', idempotencyKey);
    const reservations = () => world.uow.run(({ manager }) => manager.query(`SELECT id FROM llm_spend_reservations ORDER BY id`) as Promise<Array<{ id: string }>>);
    // Today's spend as GET /v1/spend reads it (the API's ledger: the heartbeat table, the same stale window).
    const todaysSpend = () => new SpendLedgerRepository(world.uow, { liveness: heartbeatLiveness(new WorkerHeartbeatRepository(world.uow), staleMs) }).summary();

    let worker = spawnWorkerApp(configPath, address);
    try {
      const workflowId = prepWorkflowId(idempotencyKey);
      const handle = await suite.client.workflow.start(PREPARATION_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId, args: [{ jobKey: 'j1', idempotencyKey, mode: 'full' }] });
      await until('both reviews of the pair to be held by the model server', () => llm.inFlight === 2 && REVIEW_SCHEMAS.every((s) => callsBySchema(llm.requests)[s] === 1), 90_000, () => worker.log());
      // Each held review was admitted by the spend gate: one reservation per review step.
      const heldReservations = await reservations();
      expect(heldReservations).toHaveLength(2);
      // While the worker lives (its heartbeat fresh), its in-flight calls are reserved, not charged.
      expect(await todaysSpend()).toMatchObject({ unknownOutcomeCalls: 0 });
      expect(await reservations()).toEqual(heldReservations);
      const reviewEstimates = await world.uow.run(({ manager }) => manager.query(`SELECT id, estimate_usd, lane, job_key FROM llm_spend_reservations ORDER BY id`) as Promise<Array<{ id: string; estimate_usd: number; lane: string; job_key: string }>>);
      expect(reviewEstimates.map((r) => [r.lane, r.job_key])).toEqual([['review', 'j1'], ['review', 'j1']]);
      const killed = worker;
      const killedIdentity = pollingIdentity(killed);
      await killWorker(killed);
      holdReviews = false;

      worker = spawnWorkerApp(configPath, address);
      const identity = await until('the new worker to poll', () => pollingIdentity(worker), 90_000, () => worker.log());
      const result = await within(90_000, 'the review pair after the restart', handle.result() as Promise<JobPreparationResult>, () => worker);
      expect(result).toMatchObject({ jobKey: 'j1', stage: 'prepared' });

      // The pair ran to completion once, on the new worker. Which activity carries it depends on the
      // workflow's path (prepareJobStages for a model provider, or reviewCoverLetter stage by stage):
      // exactly one run completed, on the new worker; at most one other ended (the killed attempt,
      // timed out, or on the stage-by-stage path the whole-job activity that gave way to it).
      const events = (await suite.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
      const runs = ['prepareJobStages', 'reviewCoverLetter'].flatMap((type) => activityRuns(events, type).map((r) => ({ type, ...r })));
      expect(runs.filter((r) => r.outcome === 'completed')).toEqual([expect.objectContaining({ identity })]);
      expect(runs.filter((r) => r.outcome !== 'completed').length).toBeLessThanOrEqual(1);
      expect(runs.every((r) => r.outcome === 'completed' || r.outcome === 'timed out' || r.outcome === 'failed')).toBe(true);
      expect(identity).not.toBe(killedIdentity);
      const job = await world.jobs.get('j1');
      expect(job).toMatchObject({ stage: 'prepared', coverAttempts: 1 });
      expect(job?.coverReview).toMatchObject({ accepted: true });
      // The model saw each review step twice (the held call and its retry), everything else once.
      expect(callsBySchema(llm.requests)).toEqual({ job_fit_score: 1, tailored_resume: 1, cover_letter: 1, factual_review: 2, quality_review: 2 });

      // Today's spend includes the two killed calls (the provider may have billed them): each is an
      // `unknown` call charged at its reservation's estimate, with its job. Before #15 their
      // reservations were left to expire and then deleted, and the spend never counted them.
      const summary = await until('the killed calls to be charged (their worker\'s heartbeat stale)', async () => {
        const s = await todaysSpend();
        return s.unknownOutcomeCalls > 0 && s;
      }, 30_000);
      expect(summary).toMatchObject({ calls: 7, unknownOutcomeCalls: 2 });
      expect(summary.unknownOutcomeUsd).toBeCloseTo(reviewEstimates[0].estimate_usd + reviewEstimates[1].estimate_usd, 9);
      // No double spend: one recorded call per review step on the new worker, plus the two killed ones.
      const spend = await world.uow.run(({ manager }) => manager.query(`SELECT lane, outcome, job_key, COUNT(*) AS n FROM llm_spend GROUP BY lane, outcome ORDER BY lane, outcome`) as Promise<Array<{ lane: string; outcome: string; job_key: string; n: number }>>);
      expect(spend).toEqual([
        { lane: 'cover', outcome: 'ok', job_key: 'j1', n: 1 },
        { lane: 'review', outcome: 'ok', job_key: 'j1', n: 2 },
        { lane: 'review', outcome: 'unknown', job_key: 'j1', n: 2 },
        { lane: 'score', outcome: 'ok', job_key: 'j1', n: 1 },
        { lane: 'tailor', outcome: 'ok', job_key: 'j1', n: 1 },
      ]);
      // Nothing is left reserved: the new worker released its own, the killed worker's were settled.
      expect(await reservations()).toEqual([]);

      await expectOnePreparation(world, 'j1', idempotencyKey, 'full');
    } finally {
      await worker.stop();
      await llm.close();
      await disposeBoardWorld(world);
    }
  }, 180_000);

  it('during a heartbeat write: the row stays schema-valid, the killed worker reads stale, the new one ready; the job being scored is scored once', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    // The score answer is held while the first worker lives, so a preparation is in flight too.
    let holdScore = true;
    const llm = await startLlmSimulator({ respond: createPipelineResponder({ score: 20 }), latencyMs: () => (holdScore ? 600_000 : 0) });
    const staleMs = 3_000;
    const configPath = writeWorkerAppConfig(world, llm.url, { worker_heartbeat_stale_seconds: staleMs / 1000 });
    await new ProfileRepository(world.uow).put(sampleProfile());
    const idempotencyKey = `hb-kill-${world.taskQueue}`;
    await seedEnrichedJob(world, 'j1', idempotencyKey);
    const heartbeats = new WorkerHeartbeatRepository(world.uow);
    // What health and the readiness guard say about this database (the API's rules, its stale window).
    const readiness = async () =>
      classifyWorkerReadiness((await heartbeats.listForDatabase(world.databasePath)) as never, { databasePath: world.databasePath, appDir: world.dir, now: Date.now(), staleMs });

    let worker = spawnWorkerApp(configPath, address);
    const locker = new sqlite3.Database(world.databasePath);
    let locked = false;
    try {
      const first = worker;
      await until('the first worker to be ready', async () => (await readiness()).newest?.pid === first.child.pid, 90_000, () => first.log());
      const handle = await suite.client.workflow.start(PREPARATION_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: prepWorkflowId(idempotencyKey), args: [{ jobKey: 'j1', idempotencyKey, mode: 'score' }] });
      await until('the first worker to call the model', () => llm.requests.length >= 1, 90_000, () => first.log());

      // Another connection takes the write lock: the worker's next heartbeat (every second) waits
      // inside its write transaction. Once the row is 2.5 intervals old, a write is due and stuck there.
      await sqlExec(locker, 'BEGIN IMMEDIATE');
      locked = true;
      const before = (await heartbeats.listForDatabase(world.databasePath)).find((r) => r.pid === first.child.pid);
      await until('a heartbeat write of the first worker to wait on the lock', () => before && Date.now() - before.recordedAt > 2_500, 30_000);
      await killWorker(first);
      holdScore = false;
      await sqlExec(locker, 'COMMIT');
      locked = false;

      // Never half-written: the database is intact and every heartbeat row parses.
      expect(await sqlAll<{ integrity_check: string }>(locker, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
      const rows = await sqlAll<Record<string, unknown>>(locker, 'SELECT * FROM worker_heartbeats');
      expect(rows.length).toBeGreaterThan(0);
      const parsed = (await heartbeats.listForDatabase(world.databasePath)).map((r) => parseHeartbeatRow(r as never));
      expect(parsed.every((hb) => hb !== null)).toBe(true);

      // The killed worker's heartbeat goes stale, and readiness says so.
      const stale = await until('the killed worker to read stale', async () => {
        const r = await readiness();
        return r.status === 'stale' && r;
      }, 30_000);
      expect(stale).toMatchObject({ freshWorkers: 0, newest: { pid: first.child.pid } });
      expect(stale.reason).toMatch(/stale after 3 s/);

      // A new worker's heartbeat makes it ready again.
      worker = spawnWorkerApp(configPath, address);
      const second = worker;
      const ready = await until('the new worker to be ready', async () => {
        const r = await readiness();
        return r.status === 'ready' && r.newest?.pid === second.child.pid && r;
      }, 90_000, () => second.log());
      expect(ready.freshWorkers).toBe(1);

      // And the job that was being scored is not lost or prepared twice.
      const result = await within(90_000, 'the held score after the restart', handle.result() as Promise<JobPreparationResult>, () => worker);
      expect(result).toMatchObject({ jobKey: 'j1', stage: 'scored', score: 20 });
      await expectOnePreparation(world, 'j1', idempotencyKey, 'score');
      // The killed worker's held score call is spend too: charged as unknown, once, beside the new worker's.
      const liveness = heartbeatLiveness(heartbeats, staleMs);
      const spend = await until('the killed score call to be charged', async () => {
        const summary = await new SpendLedgerRepository(world.uow, { liveness }).summary();
        return summary.unknownOutcomeCalls > 0 && summary;
      }, 30_000);
      expect(spend).toMatchObject({ calls: 2, unknownOutcomeCalls: 1, byLane: { score: spend.totalUsd } });
    } finally {
      if (locked) await sqlExec(locker, 'ROLLBACK').catch(() => undefined);
      await new Promise((r) => locker.close(r));
      await worker.stop();
      await llm.close();
      await disposeBoardWorld(world);
    }
  }, 180_000);

  it('mid inline batch: the worker dies while an extractive profile update prepares its jobs inside the batch; the new worker retries the call from its heartbeats and every job ends re-prepared once (one draft each), none lost', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    // No model server: the extractive provider calls none (the address is never dialled).
    const configPath = writeWorkerAppConfig(world, 'http://127.0.0.1:9', { llm: { provider: 'extractive' } });
    const profiles = new ProfileRepository(world.uow);
    await profiles.put(sampleProfile());
    // Stored jobs scored against revision 1, as a profile update finds them.
    const prep = new PreparationRepository(world.uow);
    const keys = Array.from({ length: 200 }, (_, i) => ({ jobKey: `k${i}`, idempotencyKey: `inline-kill-${i}-${world.taskQueue}` }));
    for (const k of keys) {
      await seedEnrichedJob(world, k.jobKey, k.idempotencyKey);
      await prep.recordScore(k.jobKey, { score: 0, detail: { seeded: true }, profileRevision: 1, threshold: 50 }, await prep.fenceOf(k.jobKey));
    }
    const { revision } = await profiles.put({ ...sampleProfile(), skills: [...sampleProfile().skills, 'Rust'] });
    const rows = () =>
      world.uow.run(({ manager }) => manager.query(`SELECT job_key, stage, cover_attempts, score_profile_revision FROM jobs`) as Promise<Array<{ job_key: string; stage: string; cover_attempts: number; score_profile_revision: number | null }>>);

    let worker = spawnWorkerApp(configPath, address);
    try {
      const runId = randomUUID();
      const input: JobPipelineInput = { runId, stages: ['score', 'tailor', 'cover'], scope: 'profile_update', internalConcurrency: 2, profileRevision: revision };
      const handle = await suite.client.workflow.start(PIPELINE_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: pipelineWorkflowId(runId), args: [input] });
      // A call takes 64 jobs (32 per lane) and runs up to 2 s: at 10 re-prepared the first is under way.
      const first = worker;
      await until('the first inline call to be under way', async () => (await rows()).filter((r) => r.score_profile_revision === revision).length >= 10, 90_000, () => first.log());
      await killWorker(first);
      worker = spawnWorkerApp(configPath, address);
      const result = await within(120_000, 'the batch to finish on the new worker', handle.result() as Promise<JobPipelineResult>, () => worker);

      expect(result.preparation).toMatchObject({ selected: keys.length, completed: keys.length, failed: 0 });
      const after = await rows();
      expect(after).toHaveLength(keys.length);
      // None lost: every job re-scored against the new profile and in a final stage.
      expect(after.filter((r) => r.score_profile_revision !== revision || !['prepared', 'scored'].includes(r.stage))).toEqual([]);
      // Prepared once: a job the kill caught mid-way resumed from its stage (a draft left unreviewed is
      // reviewed, not rewritten), so no job has a second draft.
      expect(after.filter((r) => r.cover_attempts > 1)).toEqual([]);
      expect(after.filter((r) => r.stage === 'prepared').length).toBeGreaterThan(0);
      // The killed call was retried by the new worker (its heartbeat timed out), not given up on.
      const events = (await handle.fetchHistory()).events ?? [];
      const calls = activityRuns(events, 'prepareTargetsExtractive');
      expect(calls[0]).toMatchObject({ outcome: 'completed' });
      expect(calls[0].attempt).toBeGreaterThanOrEqual(2);
      // The jobs were prepared inside the batch: no workflow per job was started.
      expect(scheduledActivityTypes(events)).not.toContain('startPreparations');
    } finally {
      await worker.stop();
      await disposeBoardWorld(world);
    }
  }, 240_000);
});
