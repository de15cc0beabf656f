// POST /v1/jobs/:jobKey/prepare (#13): the API's service re-prepares one job on this app's own worker
// (real dev server, SQLite file, board simulator), through the same prep-{idempotency_key} workflow
// every other preparation uses.
import { ConflictException, NotFoundException } from '@nestjs/common';
import type { Client } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ApplicationRepository } from '@jobctrl/apply-launcher/application';
import { APPLY_TENANT, prepWorkflowId } from '@jobctrl/pipeline/contracts';
import { JobPreparationService } from '@jobctrl/runs';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import type { SettingsService } from '@jobctrl/shared/config';
import type { TemporalClientService } from '@jobctrl/shared/temporal';
import { allJobs, setupPreparationWorld, startPipeline } from './test-support/preparation-world.fixture';
import { worldWorker } from './test-support/board-world.fixture';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { scheduledActivityTypes } from './test-support/worker-app.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

/** The service behind the route, over the test's database and task queue. */
function preparationApi(s: Awaited<ReturnType<typeof setupPreparationWorld>>): JobPreparationService {
  const temporal = { taskQueue: s.taskQueue, client: async (): Promise<Client> => suite.client } as unknown as TemporalClientService;
  // The API's config names the provider the worker runs (extractive in these worlds).
  const settings = { get: () => ({ llm: { provider: 'extractive' } }) } as unknown as SettingsService;
  return new JobPreparationService(s.uow, temporal, settings);
}

async function executions(workflowId: string): Promise<Array<{ runId: string; status: string }>> {
  const found: Array<{ runId: string; status: string }> = [];
  for await (const wf of suite.client.workflow.list({ query: `WorkflowId = '${workflowId}'` })) found.push({ runId: wf.runId, status: wf.status.name });
  return found;
}

async function refusalOf(p: Promise<unknown>): Promise<{ status: number; body: unknown }> {
  try {
    await p;
  } catch (err) {
    if (err instanceof ConflictException || err instanceof NotFoundException) return { status: err.getStatus(), body: err.getResponse() };
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('re-preparing one job', () => {
  it('starts a new prep execution that scores, tailors and writes the letter again (score against the current profile); 409 while one runs, 404 for an unknown job; other jobs untouched', async () => {
    const s = await setupPreparationWorld(suite, { jobsPerBoard: 3, families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      await s.jw.worker.runUntil(async () => (await startPipeline(suite, s.uow, s.taskQueue, ['discover', 'score', 'tailor', 'cover'])).handle.result());
      const prepared = (await allJobs(s.jobs)).filter((j) => j.stage === 'prepared');
      expect(prepared.length).toBeGreaterThanOrEqual(2);
      const [job, other] = prepared;
      expect(job.scoreProfileRevision).toBe(1);
      const api = preparationApi(s);
      expect(await api.actionsOf(job)).toEqual({ prepare: true, prepareRefusal: null });

      // A new profile revision that no batch re-prepares: only the job asked for is scored against it.
      const { revision } = await new ProfileRepository(s.uow).put({ ...sampleProfile(), summary: `${sampleProfile().summary} Now also re-prepared.` });
      const workflowId = prepWorkflowId(job.idempotencyKey);
      const before = await executions(workflowId);
      expect(before.every((e) => e.status !== 'RUNNING')).toBe(true);

      // No worker polls yet, so the new execution stays running: the button is off and a second ask is a 409.
      expect(await api.prepare(job.jobKey)).toEqual({ workflowId });
      expect((await s.jobs.get(job.jobKey))?.stage).toBe('pending_score');
      expect(await refusalOf(api.prepare(job.jobKey))).toEqual({ status: 409, body: expect.objectContaining({ code: 'preparation_running', workflowId }) });
      expect(await api.actionsOf(job)).toEqual({ prepare: false, prepareRefusal: expect.objectContaining({ code: 'preparation_running' }) });
      expect((await refusalOf(api.prepare('no-such-job'))).status).toBe(404);

      // A worker runs once: the next one on the queue (same database, same extractive provider) picks it up.
      const next = await worldWorker(suite, s, { pipeline: { preparation: { llm: { provider: 'extractive', prices: {}, timeoutMs: 10_000 }, live: () => s.live } } });
      try {
        await next.worker.runUntil(suite.client.workflow.getHandle(workflowId).result());
      } finally {
        await next.close();
      }
      const after = await executions(workflowId);
      expect(after.length).toBe(before.length + 1);
      // Started with the configured extractive provider in its input: its stages ran as one
      // activity, not stage by stage behind spend preflights.
      const history = await suite.client.workflow.getHandle(workflowId).fetchHistory();
      const activities = scheduledActivityTypes(history.events ?? []);
      expect(activities).toEqual(['prepareJobExtractive']);
      expect(after.every((e) => e.status === 'COMPLETED')).toBe(true);
      const again = await s.jobs.get(job.jobKey);
      // Scored again against the current profile, tailored, and a new letter that passed its review pair.
      expect(again).toMatchObject({ stage: 'prepared', scoreProfileRevision: revision, prepStatus: null });
      expect(again?.score).toEqual(expect.any(Number));
      expect(Date.parse(again?.preparedAt ?? '')).toBeGreaterThan(Date.parse(job.preparedAt ?? ''));
      expect(again?.tailoredResume).toBeTruthy();
      expect(again?.coverReview).toMatchObject({ accepted: true });
      expect(await api.actionsOf(job)).toEqual({ prepare: true, prepareRefusal: null });
      // Nobody else was re-prepared.
      expect(await s.jobs.get(other.jobKey)).toMatchObject({ stage: 'prepared', scoreProfileRevision: 1, preparedAt: other.preparedAt });

      // An application freezes the artifacts it uses or sent: refused while it runs, and once submitted.
      const applications = new ApplicationRepository(s.uow);
      const frozen = async (code: string) => {
        expect(await api.actionsOf(job)).toEqual({ prepare: false, prepareRefusal: expect.objectContaining({ code }) });
        expect(await refusalOf(api.prepare(job.jobKey))).toEqual({ status: 409, body: expect.objectContaining({ code }) });
        expect((await s.jobs.get(job.jobKey))?.stage).toBe('prepared');
      };
      expect((await applications.approve(job.jobKey)).approved).toBe(true);
      expect((await applications.claim(APPLY_TENANT, job.jobKey, 'run-1', { workflowId: 'apply-test', dryRun: false })).acquired).toBe(true);
      await frozen('application_in_progress');
      expect((await applications.recordIntent(APPLY_TENANT, job.jobKey, 'run-1')).accepted).toBe(true);
      expect((await applications.recordOutcome(APPLY_TENANT, job.jobKey, 'run-1', { state: 'submitted', confirmation: 'thanks' })).accepted).toBe(true);
      await frozen('application_submitted');
    } finally {
      await s.cleanup();
    }
  }, 240_000);
});
