// Issue #10: a compensation refresh on the worker app's own worker, over jobs a real discover run
// stored from the board simulator (real dev server, SQLite file).
import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import { bundleWorkflowCode, DefaultLogger, Runtime, Worker, type WorkerOptions } from '@temporalio/worker';
import { CompensationRefreshRepository, compensationView } from '@jobctrl/compensation';
import { COMPENSATION_REFRESH_WORKFLOW_TYPE, compensationRefreshWorkflowId, discoverWorkflowId, type CompensationRefreshResult } from '@jobctrl/pipeline/contracts';
import { workflowsEntry } from './create-worker';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, disposeBoardWorld, setupBoardWorld, worldWorker } from './test-support/board-world.fixture';
import { scheduledActivities } from './test-support/worker-app.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });
const quietBundler = new DefaultLogger('ERROR');

const suite = useSuiteTemporal();

describe('compensation refresh', () => {
  it('publishes the pay every Lever posting states, as one activity however many rows; a second refresh reuses every determination', async () => {
    const world = await setupBoardWorld(12, { families: [{ kind: 'lever', token: 'globex' }] });
    try {
      // Settled: a discovered job's own preparation classifies its pay under a lease; a refresh started
      // while one still runs (or after its worker stopped mid-call, until the lease expires) skips that job.
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
      const paid = items.filter((j) => j.salaryText);
      expect(paid.length).toBeGreaterThan(0);

      const repo = new CompensationRefreshRepository(world.uow);
      const refresh = async () => {
        const refreshId = randomUUID();
        const jw = await worldWorker(suite, world, { slots: 2 });
        try {
          const workflowId = compensationRefreshWorkflowId(refreshId);
          const result: CompensationRefreshResult = await jw.worker.runUntil(suite.client.workflow.execute(COMPENSATION_REFRESH_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId, args: [{ refreshId, jobKeys: null }] }));
          const history = await suite.client.workflow.getHandle(workflowId).fetchHistory();
          const scheduled = scheduledActivities(history.events ?? []).map((a) => a.type);
          return { refreshId, result, scheduled };
        } finally {
          await jw.close();
        }
      };

      const first = await refresh();
      expect(first.result).toMatchObject({ state: 'completed', counts: { jobs: items.length, failed: 0, published: items.length } });
      // N determinations live inside the one activity: no activity per row.
      expect(first.scheduled).toEqual(['refreshCompensation']);
      expect(first.result.counts.admitted).toBeGreaterThanOrEqual(paid.length);
      for (const job of paid) {
        const published = await repo.publishedFor(job.jobKey);
        expect(published?.summary).toMatchObject({ kind: expect.stringMatching(/^(base|hourly)$/), currency: expect.stringMatching(/^[A-Z]{3}$/), minYearly: expect.any(Number) });
      }
      expect(await repo.getRefresh(first.refreshId)).toMatchObject({ state: 'completed', slots: 2, failed: 0 });
      // A posting page's JSON-LD baseSalary is one more row of its job, read at enrichment.
      const truth = new Map(world.sim.manifest().jobs.map((j) => [j.url, j]));
      const withPage = paid.filter((j) => truth.get(j.url)?.detailKind === 'jsonld' && !truth.get(j.url)?.private);
      expect(withPage.length).toBeGreaterThan(0);
      for (const job of withPage) expect((await repo.publishedFor(job.jobKey))?.rows.map((r) => r.fieldPath)).toContain('jsonld.baseSalary');
      // The job record carries it, in the API's shape: figures with the rows they came from.
      const shown = compensationView((await world.jobs.get(paid[0].jobKey))?.compensation ?? null);
      expect(shown).toMatchObject({ kind: expect.any(String), minYearly: expect.any(Number), method: 'parser' });
      // Lever's salaryRange as the adapter stored it with the posting (before statements: the salary text).
      expect(shown?.rows[0]).toMatchObject({ sourceId: expect.any(String), externalJobId: expect.any(String), fieldPath: 'lever.salaryRange', decided: true });

      const second = await refresh();
      expect(second.result.counts).toMatchObject({ admitted: first.result.counts.admitted, cached: first.result.counts.admitted, published: items.length });
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('shows the pay every board publishes, read from the board field each states it in; jobs without pay have none', async () => {
    const world = await setupBoardWorld(10);
    // The board field each one's figures come from: its structured pay, not its text or the description.
    const FIELD: Record<string, RegExp> = {
      greenhouse: /^greenhouse\.pay_input_ranges\[0\]$/,
      lever: /^lever\.salaryRange$/,
      ashby: /^ashby\.compensation\.summaryComponents\[0\]$/,
      smartrecruiters: /^smartrecruiters\.compensation$/,
    };
    try {
      // Settled: a discovered job's own preparation classifies its pay under a lease; a refresh started
      // while one still runs (or after its worker stopped mid-call, until the lease expires) skips that job.
      expect(await discoverOnce(suite, world, { settle: true })).toMatchObject({ state: 'completed' });
      const manifest = world.sim.manifest();
      const truth = new Map(manifest.jobs.map((j) => [j.url, j]));
      const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
      expect(new Set(items.map((j) => truth.get(j.url)?.kind))).toEqual(new Set(Object.keys(FIELD)));

      const refreshId = randomUUID();
      const jw = await worldWorker(suite, world, { slots: 2 });
      try {
        const args = [{ refreshId, jobKeys: null }];
        const result: CompensationRefreshResult = await jw.worker.runUntil(suite.client.workflow.execute(COMPENSATION_REFRESH_WORKFLOW_TYPE, { taskQueue: world.taskQueue, workflowId: compensationRefreshWorkflowId(refreshId), args }));
        expect(result).toMatchObject({ state: 'completed', counts: { jobs: items.length, failed: 0, published: items.length } });
      } finally {
        await jw.close();
      }

      const repo = new CompensationRefreshRepository(world.uow);
      let paid = 0;
      for (const job of items) {
        const board = truth.get(job.url);
        if (!board) throw new Error(`no simulator job at ${job.url}`);
        const published = await repo.publishedFor(job.jobKey);
        const pay = board.salaryRange;
        if (!pay) {
          expect({ url: job.url, summary: published?.summary ?? null }).toEqual({ url: job.url, summary: null });
          continue;
        }
        paid += 1;
        expect({ url: job.url, ...published?.summary }).toMatchObject({
          url: job.url,
          kind: pay.period === 'hour' ? 'hourly' : 'base',
          currency: pay.currency,
          min: pay.min,
          max: pay.max,
          field: expect.stringMatching(FIELD[board.kind]),
        });
        // The row names the exact source posting it came from: this job's, or its re-post's (the
        // same job, stored once, with both postings as sources).
        const postings = manifest.jobs.filter((j) => j.gid === board.gid || j.repostOf === board.gid).map((j) => j.nativeId);
        const row = published?.rows.find((r) => r.fieldPath === published.summary?.field);
        expect(postings).toContain(row?.externalJobId);
        expect(row?.sourceId).toEqual(expect.any(String));
      }
      expect(paid).toBeGreaterThan(items.length / 2);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('a discover run classifies each discovered job before scoring it: compensation is published with no refresh asked for', async () => {
    const world = await setupBoardWorld(12, { families: [{ kind: 'lever', token: 'globex' }] });
    try {
      // The discover run ends before every job's own preparation does: keep the worker until they have.
      const jw = await worldWorker(suite, world);
      try {
        const runId = randomUUID();
        await jw.worker.runUntil(async () => {
          await suite.client.workflow.execute('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
          const deadline = Date.now() + 90_000;
          while ((await world.jobs.list({ limit: 1000, offset: 0 })).items.some((j) => j.stage === 'pending_score') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
        });
      } finally {
        await jw.close();
      }
      const { items } = await world.jobs.list({ limit: 1000, offset: 0 });
      const paid = items.filter((j) => j.salaryText);
      expect(paid.length).toBeGreaterThan(0);
      for (const job of items) {
        expect(job.stage).not.toBe('pending_score');
        const published = job.compensation;
        expect(published).not.toBeNull();
        if (job.salaryText) expect(compensationView(published)).toMatchObject({ minYearly: expect.any(Number), currency: expect.stringMatching(/^[A-Z]{3}$/) });
      }
      // In each job's own preparation, the classification comes before the score: with this world's
      // extractive provider, inside the job's one activity (asked for in its input).
      const history = await suite.client.workflow.getHandle(`prep-${paid[0].idempotencyKey}`).fetchHistory();
      expect(scheduledActivities(history.events ?? [])).toEqual([{ type: 'prepareJobExtractive', input: expect.objectContaining({ stages: ['score'], classifyCompensation: { idempotencyKey: paid[0].idempotencyKey } }) }]);
    } finally {
      await disposeBoardWorld(world);
    }
  });

  it('replays preparation histories recorded before the classification marker, and new ones only with it', async () => {
    const v2 = await bundleWorkflowCode({ workflowsPath: path.join(__dirname, 'test-support', 'prep-v2.workflows.ts'), webpackConfigHook: workflowsEntry().webpackConfigHook as never, logger: quietBundler });
    const record = async (bundle: WorkerOptions['workflowBundle']) => {
      const world = await setupBoardWorld(3, { families: [{ kind: 'lever', token: 'globex' }] });
      try {
        const jw = await worldWorker(suite, world, { workflowBundle: bundle });
        try {
          const runId = randomUUID();
          await jw.worker.runUntil(suite.client.workflow.execute('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] }));
        } finally {
          await jw.close();
        }
        const [job] = (await world.jobs.list({ limit: 1, offset: 0 })).items;
        return await suite.client.workflow.getHandle(`prep-${job.idempotencyKey}`).fetchHistory();
      } finally {
        await disposeBoardWorld(world);
      }
    };
    // An activity of its own, or (since prep-extractive-classify-in-activity-v1) the extractive job's one activity asked to classify first.
    const classified = (h: Awaited<ReturnType<typeof record>>) => scheduledActivities(h.events ?? []).some((a) => a.type === 'classifyJobCompensation' || (a.input as { classifyCompensation?: unknown } | null)?.classifyCompensation !== undefined);

    const oldHistory = await record(v2);
    expect(classified(oldHistory)).toBe(false);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, oldHistory);

    const history = await record(suite.bundle);
    expect(classified(history)).toBe(true);
    await Worker.runReplayHistory({ workflowBundle: suite.bundle }, history);
    await expect(Worker.runReplayHistory({ workflowBundle: v2 }, history)).rejects.toThrow();
  }, 180_000);
});
