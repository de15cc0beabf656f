import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { activitiesWaiting } from '@jobctrl/shared/temporal';
import { disposeBoardWorld, setupBoardWorld, worldWorker } from './test-support/board-world.fixture';
import { createProbeActivities } from './test-support/probe.activities';
import { useSuiteTemporal } from './test-support/temporal.harness';
import { until } from './test-support/worker-app.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

// The probe workflows and the real ones, bundled once for the suite.
const suite = useSuiteTemporal(path.join(__dirname, 'test-support', 'test.workflows.ts'));

/**
 * What an availability sweep asks before each claim (libs/posting-checks: it yields its slot when
 * this is true), against the dev server's own task-queue statistics: a worker with one slot, two
 * activities that each hold it for 8 s. The statistics are approximate and refreshed every few
 * seconds (≈ 5 s on the dev server), so a sweep yields within one check plus that lag.
 */
describe('activitiesWaiting: do activities wait for a worker slot on this queue?', () => {
  it('is false on an idle queue, true while an activity waits for the only slot, false again once it ran; null when the server cannot say', async () => {
    const world = await setupBoardWorld(1, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const jw = await worldWorker(suite, world, { slots: 1, extraActivities: () => ({ ...createProbeActivities(world.uow, new Map()) }) });
    const waiting = () => activitiesWaiting(suite.client, 'default', world.taskQueue);
    try {
      await jw.worker.runUntil(async () => {
        expect(await waiting()).toBe(false);
        const holds = await Promise.all(
          [1, 2].map(() => suite.client.workflow.start('heartbeatProbeWorkflow', { taskQueue: world.taskQueue, workflowId: `hold-${randomUUID()}`, args: [8_000] })),
        );
        // The server refreshes its statistics every few seconds: the second hold waits long enough to be seen.
        await until('the second activity to wait for the slot', async () => (await waiting()) === true, 30_000);
        await Promise.all(holds.map((h) => h.result()));
        await until('nothing to wait any more', async () => (await waiting()) === false, 30_000);
      });
    } finally {
      await jw.close();
      await disposeBoardWorld(world);
    }
    // An unknown namespace: the server refuses, and unknown is not "nobody waits".
    expect(await activitiesWaiting(suite.client, `no-such-namespace-${randomUUID()}`, world.taskQueue)).toBeNull();
  }, 120_000);
});
