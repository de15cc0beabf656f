// Issue #10: a compensation refresh on the worker app's own worker, over jobs a real discover run
// stored from the board simulator (real dev server, SQLite file).
import * as fs from 'node:fs';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { CompensationRefreshRepository, compensationView } from '@jobctrl/compensation';
import { COMPENSATION_REFRESH_WORKFLOW_TYPE, compensationRefreshWorkflowId, type CompensationRefreshResult } from '@jobctrl/pipeline/contracts';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { discoverOnce, setupBoardWorld, worldWorker } from './test-support/board-world.fixture';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

describe('compensation refresh', () => {
  it('publishes the pay every Lever posting states, as one activity however many rows; a second refresh reuses every determination', async () => {
    const world = await setupBoardWorld(12, { families: [{ kind: 'lever', token: 'globex' }] });
    try {
      expect(await discoverOnce(suite, world)).toMatchObject({ state: 'completed' });
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
          const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes).map((e) => e.activityTaskScheduledEventAttributes?.activityType?.name);
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
      // The job record carries it, in the API's shape: figures with the rows they came from.
      const shown = compensationView((await world.jobs.get(paid[0].jobKey))?.compensation ?? null);
      expect(shown).toMatchObject({ kind: expect.any(String), minYearly: expect.any(Number), method: 'parser' });
      expect(shown?.rows[0]).toMatchObject({ sourceId: expect.any(String), externalJobId: expect.any(String), fieldPath: 'salary_text', text: paid[0].salaryText, decided: true });

      const second = await refresh();
      expect(second.result.counts).toMatchObject({ admitted: first.result.counts.admitted, cached: first.result.counts.admitted, published: items.length });
    } finally {
      await world.sim.stop();
      fs.rmSync(world.dir, { recursive: true, force: true });
    }
  });
});
