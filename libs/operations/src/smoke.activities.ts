import { Context } from '@temporalio/activity';
import type { SmokeActivities, SmokeHoldInput, SmokeHoldResult } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { ActivityGauge } from '@jobctrl/shared/temporal';
import { SmokeProbeRepository } from './smoke-probe.repository';

export interface SmokeActivityDeps {
  gauge: ActivityGauge;
  uow: UnitOfWorkFactory;
  workerIdentity: string;
}

/**
 * The smoke hold: occupies one remote activity slot for `holdMs`, heartbeating, and reports the
 * concurrency it saw on its worker. Its start and end are committed to smoke_probes, each in its own
 * unit of work, so the probe also exercises the database path of real stage work.
 */
export function createSmokeActivities(deps: SmokeActivityDeps): SmokeActivities {
  const probes = new SmokeProbeRepository(deps.uow);
  return {
    async smokeHold(input: SmokeHoldInput): Promise<SmokeHoldResult> {
      const ctx = Context.current();
      const observedActive = deps.gauge.remoteActive;
      let peakActive = observedActive;
      const unwatch = deps.gauge.watchRemote((active) => (peakActive = Math.max(peakActive, active)));
      try {
        const { workflowExecution, activityId, attempt } = ctx.info;
        const probeId = await probes.start({
          workflowId: workflowExecution?.workflowId ?? 'standalone',
          runId: workflowExecution?.runId ?? 'standalone',
          activityId,
          attempt,
          observedActive,
          startedAt: Date.now(),
        });

        const deadline = Date.now() + input.holdMs;
        while (Date.now() < deadline) {
          ctx.heartbeat({ index: input.index });
          // Context.sleep rejects on cancellation, so a cancelled smoke run frees its slot promptly.
          await ctx.sleep(Math.min(500, deadline - Date.now()));
        }

        await probes.finish(probeId, Date.now());
        return { index: input.index, observedActive, peakActive, workerIdentity: deps.workerIdentity };
      } finally {
        unwatch();
      }
    },
  };
}
