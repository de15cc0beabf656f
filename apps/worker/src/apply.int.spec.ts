// Issue #12: applying on the worker app's own worker (real dev server, SQLite file, Debian's
// Chromium) to the board simulator's application forms.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { ApplicationRepository, inspectCustody } from '@jobctrl/apply-launcher';
import { survivorsUnder } from '@jobctrl/apply-launcher/testing';
import { randomUUID } from 'node:crypto';
import {
  APPLY_TENANT,
  APPLY_WORKFLOW_TYPE,
  applyWorkflowId,
  PIPELINE_WORKFLOW_TYPE,
  pipelineWorkflowId,
  POSTING_CHECK_WORKFLOW_TYPE,
  postingCheckWorkflowId,
  type ApplyInput,
  type ApplyResult,
  type JobPipelineInput,
  type JobPipelineResult,
} from '@jobctrl/pipeline/contracts';
import { PostingCheckRepository } from '@jobctrl/posting-checks';
import { ProfileRepository } from '@jobctrl/shared/profile';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { spawnWorkerApp, testTemporalAddress, useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, disposeBoardWorld, setupBoardWorld, worldWorker, type BoardWorld } from './test-support/board-world.fixture';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();
const CHROMIUM = '/usr/bin/chromium';

beforeAll(() => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (applying drives it)`);
});

/** Chromium processes started under `dir` (their --user-data-dir or environment name it), from /proc. */
const browsersUnder = (dir: string) => survivorsUnder(dir).filter((p) => /chrom/i.test(p.cmd));

interface Prepared {
  jobKey: string;
  gid: number;
}

/**
 * A discovered Greenhouse job made ready to apply: the sample profile, a tailored resume and a
 * passed cover letter, an `open` availability from a real check, saved answers for the questions
 * only the person may answer (work authorisation, sponsorship, consent), and the approval.
 */
async function prepareJob(world: BoardWorld, opts: { unknownQuestion?: string; confirmation?: 'page' | 'hang'; not?: number[] } = {}): Promise<Prepared> {
  const manifest = world.sim.manifest();
  const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
  const byUrl = new Map(items.map((j) => [j.url, j.jobKey]));
  const job = manifest.jobs.find((j) => !j.private && j.kind === 'greenhouse' && byUrl.has(j.url) && j.availability === 'open' && !opts.not?.includes(j.gid));
  if (!job) throw new Error('no public greenhouse job in the world');
  const jobKey = byUrl.get(job.url) as string;
  world.sim.setKnobs({ applications: { [job.gid]: { ...(opts.unknownQuestion ? { unknownQuestion: opts.unknownQuestion } : {}), confirmation: opts.confirmation ?? 'page' } } });

  await new ProfileRepository(world.uow).put(sampleProfile());
  const profile = sampleProfile();
  const resume = { summary: profile.summary, skills: profile.skills, experience: profile.experience, education: profile.education };
  await world.uow.run(({ manager }) =>
    manager.query(`UPDATE jobs SET stage = 'prepared', score = 90, tailored_resume = ?, cover_letter = ?, cover_review = ? WHERE job_key = ?`, [
      JSON.stringify(resume),
      JSON.stringify({ text: `Dear ${job.company} team,\n\nI would like to apply.\n\nBest regards,\n${profile.contact.name}`, method: 'extractive', version: 't' }),
      JSON.stringify({ accepted: true }),
      jobKey,
    ]),
  );
  const form = world.sim.applicationForm(job.gid);
  if (!form) throw new Error(`no application form for ${job.gid}`);
  const label = (key: string) => form.fields.find((f) => f.key === key)?.label;
  const answers: Record<string, string> = {};
  for (const [key, value] of [['work_authorization', 'Yes'], ['sponsorship', 'No'], ['privacy_consent', 'I agree'], ['years_experience', '5']] as const) {
    const l = label(key);
    if (l) answers[l] = value;
  }
  const applications = new ApplicationRepository(world.uow);
  await applications.saveAnswers(jobKey, answers);
  expect(await applications.approve(jobKey)).toMatchObject({ approved: true });
  return { jobKey, gid: job.gid };
}

async function checkAvailability(world: BoardWorld, jobKey: string): Promise<void> {
  await suite.client.workflow.execute(POSTING_CHECK_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: postingCheckWorkflowId(jobKey), args: [{ jobKey }] });
}

function startApply(world: BoardWorld, jobKey: string, dryRun = false) {
  const input: ApplyInput = { tenant: APPLY_TENANT, jobKey, dryRun };
  return suite.client.workflow.start(APPLY_WORKFLOW_TYPE, {
    taskQueue: world.taskQueue,
    workflowId: applyWorkflowId(APPLY_TENANT, jobKey),
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
}

describe('applying to the board simulator', () => {
  it('submits an approved job exactly once when apply is asked five times at once, and never again; a dry run and an unknown question stop before submitting', async () => {
    const world = await setupBoardWorld(6, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const { jobKey, gid } = await prepareJob(world);
      const other = await prepareJob(world, { unknownQuestion: 'What is your favourite board game?', not: [gid] });
      const jw = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM, apply: { appDir: world.dir, dailyCap: () => 10 } } });
      try {
        await jw.worker.runUntil(async () => {
          await checkAvailability(world, jobKey);

          const dry: ApplyResult = await (await startApply(world, jobKey, true)).result();
          expect({ state: dry.state, reason: dry.reason }).toEqual({ state: 'dry_run_done', reason: null });
          expect(world.sim.submissions().filter((s) => s.gid === gid)).toHaveLength(0);

          const handles = await Promise.all(Array.from({ length: 5 }, () => startApply(world, jobKey)));
          expect(new Set(handles.map((h) => h.firstExecutionRunId)).size).toBe(1);
          const result: ApplyResult = await handles[0].result();
          expect(result).toMatchObject({ state: 'submitted', confirmation: expect.stringMatching(/GH-/) });

          // Asked again after the submission: the record answers, nothing is submitted.
          const again: ApplyResult = await (await startApply(world, jobKey)).result();
          expect(again).toMatchObject({ state: 'submitted' });

          // A required question nobody answered stops for input, naming it.
          await checkAvailability(world, other.jobKey);
          const stopped: ApplyResult = await (await startApply(world, other.jobKey)).result();
          expect(stopped).toMatchObject({ state: 'needs_user_input', questions: [expect.objectContaining({ label: 'What is your favourite board game?' })] });
        });
        const submissions = world.sim.submissions().filter((s) => s.gid === gid);
        expect(submissions).toHaveLength(1);
        expect(submissions[0].files.find((f) => f.key === 'resume')).toMatchObject({ pdf: true, contentType: 'application/pdf' });
        const record = await new ApplicationRepository(world.uow).applicationOf(APPLY_TENANT, jobKey);
        expect(record).toMatchObject({ state: 'submitted', submitIntent: 'confirmed' });
        expect(record?.screenshots.map((s) => s.name)).toEqual(expect.arrayContaining(['filled.png', 'after-submit.png']));
        for (const shot of record?.screenshots ?? []) expect(fs.statSync(shot.path).size).toBeGreaterThan(0);
        expect(inspectCustody(world.dir, APPLY_TENANT, jobKey).state).toBe('free');

        expect(world.sim.submissions().filter((s) => s.gid === other.gid)).toHaveLength(0);
      } finally {
        await jw.close();
      }
      expect(browsersUnder(world.dir)).toEqual([]);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('kill -9 of the worker after the submit click: the job ends needs_verification, is never submitted again, and the dead attempt\'s browser is recovered', async () => {
    const world = await setupBoardWorld(6, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const address = testTemporalAddress();
    try {
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      // The board records the submission and then never answers: the worker dies waiting for it.
      const { jobKey, gid } = await prepareJob(world, { confirmation: 'hang' });
      const warm = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM } });
      await warm.worker.runUntil(checkAvailability(world, jobKey));
      await warm.close();

      const configPath = path.join(world.dir, 'config.json');
      fs.writeFileSync(configPath, JSON.stringify({ app_dir: world.dir, database_path: world.databasePath, temporal_task_queue: world.taskQueue, worker_heartbeat_interval_seconds: 1, host_min_spacing_ms: 0, allowed_private_hosts: ['127.0.0.1'] }));
      const worker = spawnWorkerApp(configPath, address);
      let handle: Awaited<ReturnType<typeof startApply>>;
      try {
        handle = await startApply(world, jobKey);
        const deadline = Date.now() + 90_000;
        while (world.sim.submissions().filter((s) => s.gid === gid).length === 0) {
          if (Date.now() > deadline) {
            const record = await new ApplicationRepository(world.uow).applicationOf(APPLY_TENANT, jobKey);
            throw new Error(`the apply never submitted (application: ${JSON.stringify(record)}); worker log:\n${worker.log().slice(-4000)}`);
          }
          await new Promise((r) => setTimeout(r, 200));
        }
        worker.child.kill('SIGKILL');
        await new Promise((r) => worker.child.once('exit', r));
      } finally {
        await worker.stop();
      }
      // The dead attempt's browser outlives its worker (its own session): custody is held.
      expect(inspectCustody(world.dir, APPLY_TENANT, jobKey)).toMatchObject({ state: 'held', ownerAlive: false });

      const jw = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM, apply: { appDir: world.dir, dailyCap: () => 10 } } });
      try {
        await jw.worker.runUntil(async () => {
          // The lost attempt (one attempt by policy) is ended, not retried.
          const lost = await handle.result().catch((err: unknown) => err);
          expect(lost).toBeInstanceOf(Error);
          expect(await new ApplicationRepository(world.uow).applicationOf(APPLY_TENANT, jobKey)).toMatchObject({ state: 'needs_verification', submitIntent: 'pending' });
          // Asked again: refused by the recorded intent; the dead attempt's browser is recovered on the way.
          const again: ApplyResult = await (await startApply(world, jobKey)).result();
          expect(again).toMatchObject({ state: 'needs_verification' });
        });
      } finally {
        await jw.close();
      }
      expect(world.sim.submissions().filter((s) => s.gid === gid)).toHaveLength(1);
      expect(inspectCustody(world.dir, APPLY_TENANT, jobKey).state).toBe('free');
      expect(browsersUnder(world.dir)).toEqual([]);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('a run with the apply stage applies to its approved jobs through their own ApplyWorkflow children, checking a stale posting first', async () => {
    const world = await setupBoardWorld(6, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      // Approved, but never checked: the stage charges a foreground check and the child runs it first.
      const { jobKey, gid } = await prepareJob(world);
      const jw = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM, apply: { appDir: world.dir, dailyCap: () => 10 } } });
      const runId = randomUUID();
      const input: JobPipelineInput = { runId, stages: ['apply'], scope: 'run', internalConcurrency: 2 };
      let result: JobPipelineResult;
      try {
        result = await jw.worker.runUntil(suite.client.workflow.execute(PIPELINE_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: pipelineWorkflowId(runId), args: [input] }));
      } finally {
        await jw.close();
      }
      expect(result.apply).toEqual({ selected: 1, states: { submitted: 1 }, alreadyRunning: 0, budgetSkipped: 0 });
      expect(world.sim.submissions().filter((s) => s.gid === gid)).toHaveLength(1);
      expect((await new PostingCheckRepository(world.uow).availabilityOf(jobKey))?.state).toBe('open');
      expect((await new PostingCheckRepository(world.uow).budget()).state.charges.map((c) => c.kind)).toEqual(['foreground']);
      // The child is the job's own single-flight apply workflow.
      const child = await suite.client.workflow.getHandle(applyWorkflowId(APPLY_TENANT, jobKey)).describe();
      expect(child.status.name).toBe('COMPLETED');
      expect(browsersUnder(world.dir)).toEqual([]);
    } finally {
      await disposeBoardWorld(world);
    }
  });
});
