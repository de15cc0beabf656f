import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import type { DiscoveryActivities, DiscoveryPlan, EnrichmentActivities, LifecycleActivities } from '@jobctrl/pipeline/contracts';
import { discoverWorkflowId } from '@jobctrl/pipeline/contracts';
import { useSuiteTemporal } from './test-support/temporal.harness';

Runtime.install({ logger: new DefaultLogger('ERROR') });

const suite = useSuiteTemporal();

/**
 * The discover workflow's failure path, with stand-in activities: a run that fails while its live
 * enrichment consumer is still consuming must stop that consumer (and wait for it) before it records
 * the failure, so nothing keeps enriching for a run that is over.
 */
describe('A failing discover run', () => {
  it('cancels its live enrichment consumer and waits for it before recording failed', async () => {
    const events: string[] = [];
    const lifecycle: string[] = [];
    const activities: DiscoveryActivities & EnrichmentActivities & LifecycleActivities = {
      async planDiscoverySources({ runId }): Promise<DiscoveryPlan> {
        return { runId, families: [{ family: 'greenhouse', sourceIds: ['s1'] }], maxParallelFamilies: 1, internalConcurrency: 1 };
      },
      async discoverySourceFamily() {
        // The consumer is consuming while the family crawls (as in a real run).
        for (let i = 0; i < 100 && !events.includes('live started'); i++) await new Promise((r) => setTimeout(r, 100));
        return { family: 'greenhouse', status: 'completed', jobs: 1 };
      },
      async recordFamilyFailure({ family }) {
        events.push(`family failed ${family}`);
      },
      async advanceDiscoveryProgress({ completed }) {
        events.push(`progress ${completed}`);
      },
      async finishDiscoveryRun({ state }) {
        events.push(`finished ${state}`);
      },
      async fanOutPreparation({ runId }) {
        // The backstop after the first family breaks for good: the run fails mid-crawl.
        if (runId) throw ApplicationFailure.nonRetryable('the job store is gone', 'job_store_gone');
        return { started: 0 };
      },
      async discoveryEnrichment({ mode }) {
        if (mode !== 'live') return { enriched: 0, failed: 0, handedOff: 0 };
        const ctx = Context.current();
        events.push('live started');
        try {
          for (;;) {
            ctx.heartbeat();
            await ctx.sleep(200);
          }
        } catch (err) {
          events.push(err instanceof CancelledFailure ? 'live cancelled' : `live ended: ${String(err)}`);
          throw err;
        }
      },
      async recordWorkflowLifecycle(input) {
        lifecycle.push(input.eventType);
        return { inserted: true, idempotencyKey: `${input.workflowId}:${input.eventType}` };
      },
    };
    const taskQueue = `test-${randomUUID()}`;
    // Cancels reach an activity with its next heartbeat: do not let the SDK hold them back for long.
    const worker = await Worker.create({ connection: suite.connection, namespace: 'default', taskQueue, workflowBundle: suite.bundle, activities, maxHeartbeatThrottleInterval: '500 milliseconds' });
    const runId = randomUUID();
    await worker.runUntil(async () => {
      const run = suite.client.workflow.execute('discoverWorkflow', { taskQueue, workflowId: discoverWorkflowId(runId), args: [{ runId }] });
      await expect(run).rejects.toThrow();
    });
    expect(lifecycle).toEqual(['started', 'failed']);
    // The consumer acknowledged its cancel before the run was recorded failed.
    expect(events.filter((e) => !e.startsWith('progress'))).toEqual(['live started', 'live cancelled', 'finished failed']);
  }, 60_000);
});
