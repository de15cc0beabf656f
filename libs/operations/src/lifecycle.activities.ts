import type { LifecycleActivities, LifecycleEventInput, LifecycleEventResult } from '@jobctrl/pipeline/contracts';
import { lifecycleIdempotencyKey } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { BoundedExecutor } from '@jobctrl/shared/temporal';
import { LifecycleEventRepository, type LifecycleProjector } from '@jobctrl/shared/jobs';

export interface LifecycleActivityDeps {
  uow: UnitOfWorkFactory;
  /** Lifecycle writes are Temporal-side work: they run on the Temporal-sync executor. */
  executor: BoundedExecutor;
  projector: LifecycleProjector;
  log?: (message: string) => void;
}

/**
 * Workflow start/outcome writes (a local control activity). The exact tenant/workflow/run/event-type
 * idempotency key makes a retry after a committed write a no-op that reports `inserted: false`.
 */
export function createLifecycleActivities(deps: LifecycleActivityDeps): LifecycleActivities {
  const events = new LifecycleEventRepository(deps.uow);
  return {
    async recordWorkflowLifecycle(input: LifecycleEventInput): Promise<LifecycleEventResult> {
      const idempotencyKey = lifecycleIdempotencyKey(input);
      const inserted = await deps.executor.run(() =>
        events.insertIfAbsent({
          idempotencyKey,
          tenant: input.tenant,
          workflowId: input.workflowId,
          runId: input.runId,
          workflowType: input.workflowType,
          eventType: input.eventType,
          payload: { version: input.version, ...input.payload },
          recordedAt: Date.now(),
        }),
      );
      // The event is committed; the projection follows best-effort. A failed refresh leaves the event
      // for the next refresh (this one's or the API's) and must not fail or retry the control.
      await deps.executor.run(() => deps.projector.refresh()).catch((err: unknown) => {
        deps.log?.(`lifecycle projection refresh failed, will catch up: ${err instanceof Error ? err.message : String(err)}`);
      });
      return { inserted, idempotencyKey };
    },
  };
}
