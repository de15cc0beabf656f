import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { discoverWorkflowId } from '@jobctrl/pipeline/contracts';
import { waitFor } from '@jobctrl/tools/processes';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { disposeBoardWorld, setupBoardWorld, worldWorker } from './test-support/board-world.fixture';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

/** A long poll: any job enriched while the family still crawls was enriched because a commit woke the consumer. */
const POLL_MS = 30_000;
/** One Lever board of 4 pages, each listing page 2.5 s late; detail pages and robots.txt answer at once. */
const LISTING_LATENCY_MS = 2_500;

describe('live enrichment consumer wake-up', () => {
  it('a family commit wakes the consumer: jobs are enriched and scored while the family still crawls, long before the next poll', async () => {
    const world = await setupBoardWorld(30, {
      families: [{ kind: 'lever', token: 'globex' }],
      knobs: { pageSize: 10, boards: { 'lever:globex': { latencyMs: LISTING_LATENCY_MS } } },
    });
    const jw = await worldWorker(suite, world, { pipeline: { enrichmentPollMs: POLL_MS } });
    const settled = async () =>
      Number(
        (await world.uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM jobs WHERE enrichment_status != 'pending'`)) as Array<{ n: number }>)[0].n,
      );
    try {
      const runId = randomUUID();
      await jw.worker.runUntil(async () => {
        const started = Date.now();
        const handle = await suite.client.workflow.start('discoverWorkflow', { taskQueue: world.taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
        // The first page is committed after ~2.5 s; the consumer, started with the family, has
        // found nothing by then and would sleep out its 30 s poll without the wake-up.
        await waitFor(async () => ((await settled()) > 0 ? { done: true } : { progress: null }), { what: 'a job enriched', idleTimeoutMs: POLL_MS - 5_000, intervalMs: 50 });
        const firstEnrichedAfter = Date.now() - started;
        // Still crawling (three more slow pages to go): neither the terminal reconcile nor a poll did it.
        const run = await world.runs.get(runId);
        expect(run?.progress.completed).toBe(0);
        expect(firstEnrichedAfter).toBeLessThan(POLL_MS);
        // And the handoff scored it while the family still crawls.
        await waitFor(async () => ((await world.jobs.list({ stage: 'scored', limit: 1, offset: 0 })).total > 0 ? { done: true } : { progress: null }), {
          what: 'a job scored',
          idleTimeoutMs: 20_000,
          intervalMs: 50,
        });
        expect((await world.runs.get(runId))?.progress.completed).toBe(0);
        await handle.result();
        const stored = (await world.jobs.list({ limit: 1, offset: 0 })).total;
        expect(stored).toBeGreaterThan(20);
        expect(await settled()).toBe(stored);
      });
    } finally {
      await jw.close();
      await disposeBoardWorld(world);
    }
  });
});
