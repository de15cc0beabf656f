// Issue #11: saved posting checks on the worker app's own worker (real dev server, SQLite file,
// Debian's Chromium), against the board simulator closing postings in every way it knows.
import * as fs from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { PostingCheckRepository } from '@jobctrl/posting-checks';
import {
  AVAILABILITY_SWEEP_WORKFLOW_TYPE,
  availabilitySweepScheduleId,
  POSTING_CHECK_WORKFLOW_TYPE,
  postingCheckWorkflowId,
  type AvailabilitySweepResult,
  type PostingCheckResult,
} from '@jobctrl/pipeline/contracts';
import { AvailabilitySchedule } from '@jobctrl/runs/worker';
import { POSTING_MODES, type PostingMode } from '@jobctrl/tools/fixtures';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, disposeBoardWorld, setupBoardWorld, worldWorker, type BoardWorld } from './test-support/board-world.fixture';
import { scheduledActivityTypes } from './test-support/worker-app.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();
const CHROMIUM = '/usr/bin/chromium';

beforeAll(() => {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium (posting checks render JavaScript-only pages with it)`);
});

async function jobKeysByUrl(world: BoardWorld): Promise<Map<string, string>> {
  const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
  return new Map(items.map((j) => [j.url, j.jobKey]));
}

describe('saved posting checks against the board simulator', () => {
  it('finds every closure kind closed with its evidence, keeps every live posting open, and never calls a blocked or uncertain page closed', async () => {
    const world = await setupBoardWorld(10);
    try {
      // Settled: a queued preparation scoring a job while its check runs bumps the job's stage
      // version, and the check's verdict is then rightly refused (`content_changed`, the spec's fence).
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const byUrl = await jobKeysByUrl(world);
      // One public job per mode (private jobs are robots-blocked whatever their mode), each board's
      // jobs taking modes in turn so every provider's API rung is exercised.
      const publicJobs = world.sim.manifest().jobs.filter((j) => !j.private && byUrl.has(j.url));
      const modes = POSTING_MODES.filter((m): m is Exclude<PostingMode, 'open'> => m !== 'open');
      expect(publicJobs.length).toBeGreaterThan(modes.length);
      const postings: Record<number, PostingMode> = {};
      modes.forEach((mode, i) => (postings[publicJobs[i].gid] = mode));
      world.sim.setKnobs({ postings });
      const manifest = world.sim.manifest();

      const repo = new PostingCheckRepository(world.uow);
      const jw = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM } });
      try {
        const results: PostingCheckResult[] = await jw.worker.runUntil(
          Promise.all(
            manifest.jobs
              .filter((j) => byUrl.has(j.url))
              .map((j) => {
                const jobKey = byUrl.get(j.url) as string;
                return suite.client.workflow.execute(POSTING_CHECK_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: postingCheckWorkflowId(jobKey), args: [{ jobKey }] });
              }),
          ),
        );
        expect(results.every((r) => r.outcome === 'recorded')).toBe(true);
      } finally {
        await jw.close();
      }

      const seen: Array<{ mode: string; url: string; state: string | undefined }> = [];
      const want: typeof seen = [];
      for (const job of manifest.jobs) {
        const jobKey = byUrl.get(job.url);
        if (!jobKey) continue;
        const recorded = await repo.availabilityOf(jobKey);
        seen.push({ mode: job.availabilityMode, url: job.url, state: recorded?.state });
        want.push({ mode: job.availabilityMode, url: job.url, state: job.availability });
        // Never closed on uncertain or blocked evidence.
        if (job.availability !== 'closed') expect({ url: job.url, mode: job.availabilityMode, state: recorded?.state }).not.toMatchObject({ state: 'closed' });
        // Every verdict says why.
        expect(recorded?.evidence.length).toBeGreaterThan(0);
      }
      expect(seen).toEqual(want);
      // The job record carries it, as the API shows it.
      const closedGid = Object.entries(postings).find(([, m]) => m === 'page_410')?.[0];
      const closedJob = manifest.jobs.find((j) => String(j.gid) === closedGid);
      const record = await world.jobs.get(byUrl.get(closedJob?.url ?? '') ?? '');
      expect(record?.availability).toMatchObject({ state: 'closed', method: 'http', evidence: expect.arrayContaining([expect.objectContaining({ status: 410 })]) });
      expect((await world.jobs.list({ availability: 'closed', limit: 1000, offset: 0 })).total).toBe(want.filter((w) => w.state === 'closed').length);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('a scheduled sweep checks the saved jobs as one activity, charged to the sweep share; the schedule follows availability_sweeps_enabled', async () => {
    const world = await setupBoardWorld(8, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    try {
      // Settled: a queued preparation running later would move the stages this test sets.
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const publicUrls = new Set(world.sim.manifest().jobs.filter((j) => !j.private).map((j) => j.url));
      const items = (await world.jobs.list({ limit: 1000, offset: 0 })).items.filter((j) => publicUrls.has(j.url));
      expect(items.length).toBeGreaterThanOrEqual(4);
      // Every other job stays below the threshold: only the three saved ones are due.
      await world.uow.run(({ manager }) => manager.query(`UPDATE jobs SET stage = 'scored', score = 0`));
      // Saved: two prepared, one scored above the threshold; one below it is not swept.
      const [a, b, c, low] = items;
      await world.uow.run(async ({ manager }) => {
        await manager.query(`UPDATE jobs SET stage = 'prepared', score = 90 WHERE job_key IN (?, ?)`, [a.jobKey, b.jobKey]);
        await manager.query(`UPDATE jobs SET stage = 'scored', score = 75 WHERE job_key = ?`, [c.jobKey]);
        await manager.query(`UPDATE jobs SET stage = 'scored', score = 10 WHERE job_key = ?`, [low.jobKey]);
      });

      let enabled = false;
      const schedule = new AvailabilitySchedule({ client: suite.client, taskQueue: world.taskQueue, enabled: () => enabled, log: () => undefined });
      await schedule.ensure();
      const handle = suite.client.schedule.getHandle(availabilitySweepScheduleId(world.taskQueue));
      try {
        expect((await handle.describe()).state.paused).toBe(true);
        // Created idempotently: a second worker's start finds it and changes nothing.
        await new AvailabilitySchedule({ client: suite.client, taskQueue: world.taskQueue, enabled: () => enabled, log: () => undefined }).ensure();
        enabled = true;
        await schedule.sync();
        const described = await handle.describe();
        expect(described.state.paused).toBe(false);
        expect(described.spec.intervals?.[0]).toMatchObject({ every: 60_000 });
        expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: AVAILABILITY_SWEEP_WORKFLOW_TYPE, taskQueue: world.taskQueue });

        const repo = new PostingCheckRepository(world.uow);
        const jw = await worldWorker(suite, world, { pipeline: { browserExecutablePath: CHROMIUM } });
        try {
          // The trigger runs a sweep now; the schedule's own minute may start one too (then the
          // second is refused by the one-sweep-a-minute admission, or finds nothing due).
          const runs = await jw.worker.runUntil(async () => {
            await handle.trigger();
            // Generous: three checks, a browser launch and the schedule's own start on a loaded machine.
            const deadline = Date.now() + 150_000;
            for (;;) {
              const checked = await Promise.all([a, b, c].map((j) => repo.availabilityOf(j.jobKey)));
              const actions = (await handle.describe()).info.recentActions;
              if (checked.every(Boolean) && actions.length > 0) {
                return Promise.all(
                  actions.map(async (x) => {
                    const wf = suite.client.workflow.getHandle(x.action.workflow.workflowId, x.action.workflow.firstExecutionRunId);
                    const result: AvailabilitySweepResult = await wf.result();
                    const history = await wf.fetchHistory();
                    const activities = scheduledActivityTypes(history.events ?? []);
                    return { result, activities };
                  }),
                );
              }
              if (Date.now() > deadline) {
                const recent = await Promise.all(actions.map(async (x) => (await suite.client.workflow.getHandle(x.action.workflow.workflowId, x.action.workflow.firstExecutionRunId).describe()).status.name));
                throw new Error(`the triggered sweep never checked the saved jobs: checked ${checked.filter(Boolean).length} of 3; sweeps ${JSON.stringify(recent)}`);
              }
              await new Promise((r) => setTimeout(r, 200));
            }
          });
          // However many sweeps ran, the three saved jobs were claimed once each, each sweep as one activity.
          expect(runs.reduce((n, r) => n + r.result.claimed, 0)).toBe(3);
          const working = runs.filter((r) => r.result.claimed > 0);
          expect(working).toHaveLength(1);
          expect(working[0]).toEqual({ result: expect.objectContaining({ claimed: 3, recorded: 3, stoppedBy: 'no_due_jobs' }), activities: ['admitAvailabilitySweep', 'runAvailabilitySweep'] });
        } finally {
          await jw.close();
        }
        for (const job of [a, b, c]) expect({ url: job.url, ...(await repo.availabilityOf(job.jobKey)) }).toMatchObject({ url: job.url, state: 'open' });
        expect(await repo.availabilityOf(low.jobKey)).toBeNull();
        const { state } = await repo.budget();
        expect(state.charges.map((ch) => ch.kind)).toEqual(['sweep', 'sweep', 'sweep']);

        enabled = false;
        await schedule.sync();
        expect((await handle.describe()).state.paused).toBe(true);
      } finally {
        await handle.delete();
      }
    } finally {
      await disposeBoardWorld(world);
    }
  }, 300_000);
});
