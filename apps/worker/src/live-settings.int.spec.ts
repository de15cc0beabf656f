import * as fs from 'node:fs';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { defaultPayloadConverter } from '@temporalio/common';
import type { DiscoveryEnrichmentInput, DiscoveryPlan } from '@jobctrl/pipeline/contracts';
import { discoverWorkflowId } from '@jobctrl/pipeline/contracts';
import { patchSettings, writeConfigAtomic } from '@jobctrl/shared/config';
import { openTestConnections, spawnWorkerApp, testTemporalAddress, type TestConnections } from './test-support/temporal.harness';
import { disposeBoardWorld, setupBoardWorld } from './test-support/board-world.fixture';
import { SIMULATOR_CONFIG_KEYS } from './test-support/simulator-host-policy';

const address = testTemporalAddress();

/**
 * pipeline_internal_concurrency is a live setting (no restart needed): a discovery run started
 * after a change plans with the new value and hands it to its enrichment consumer, while the
 * worker process — the real app, reading the real config.json — keeps running.
 */
describe('pipeline_internal_concurrency changes reach the running worker', () => {
  let temporal: TestConnections;
  beforeAll(async () => {
    temporal = await openTestConnections(address);
  });
  afterAll(() => temporal.close());

  it('the next run snapshots the value written after the worker started', async () => {
    const world = await setupBoardWorld(2, { families: [{ kind: 'greenhouse', token: 'acme' }] });
    const configPath = path.join(world.dir, 'config.json');
    const started = { app_dir: '.', database_path: world.databasePath, temporal_task_queue: world.taskQueue, pipeline_internal_concurrency: 2, host_min_spacing_ms: 0, ...SIMULATOR_CONFIG_KEYS };
    await writeConfigAtomic(configPath, started);
    const worker = spawnWorkerApp(configPath, address);
    try {
      const discover = async () => {
        const runId = randomUUID();
        const workflowId = discoverWorkflowId(runId);
        await temporal.client.workflow.execute('discoverWorkflow', { taskQueue: world.taskQueue, workflowId, args: [{ runId }] });
        const plan = (await world.runs.get(runId))?.plan as DiscoveryPlan;
        const history = await temporal.client.workflow.getHandle(workflowId).fetchHistory();
        const consumers = (history.events ?? [])
          .map((e) => e.activityTaskScheduledEventAttributes)
          .filter((a) => a?.activityType?.name === 'discoveryEnrichment')
          .map((a) => defaultPayloadConverter.fromPayload<DiscoveryEnrichmentInput>(a?.input?.payloads?.[0] ?? {}).internalConcurrency);
        return { planned: plan.internalConcurrency, consumers };
      };

      expect(await discover()).toEqual({ planned: 2, consumers: [2, 2] }); // live + terminal consumer

      const patched = await patchSettings(configPath, { pipeline_internal_concurrency: 5 });
      expect(patched).toMatchObject({ changedKeys: ['pipeline_internal_concurrency'], restartRequired: [] });
      expect(await discover()).toEqual({ planned: 5, consumers: [5, 5] });

      // A hand edit of config.json counts the same as a PATCH.
      const doc = JSON.parse(fs.readFileSync(configPath, 'utf8'));
      fs.writeFileSync(configPath, JSON.stringify({ ...doc, pipeline_internal_concurrency: 3 }));
      expect(await discover()).toEqual({ planned: 3, consumers: [3, 3] });
      expect(worker.child.exitCode).toBeNull(); // one worker process throughout
    } finally {
      await worker.stop();
      await disposeBoardWorld(world);
    }
  }, 180_000);
});
