import type { LifecycleActivities, LifecycleEventInput, LifecycleEventResult } from '@jobctrl/pipeline/contracts';
import { lifecycleIdempotencyKey } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { BoundedExecutor } from '@jobctrl/shared/temporal';
import type { LifecycleProjector } from '@jobctrl/shared/jobs';

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
  return {
    async recordWorkflowLifecycle(input: LifecycleEventInput): Promise<LifecycleEventResult> {
      const idempotencyKey = lifecycleIdempotencyKey(input);
      const inserted = await deps.executor.run(() =>
        deps.uow.run(({ transaction }) =>
          transaction(async (manager) => {
            const existing: unknown[] = await manager.query(
              `SELECT 1 FROM workflow_lifecycle_events WHERE idempotency_key = ?`,
              [idempotencyKey],
            );
            if (existing.length > 0) return false;
            await manager.query(
              `INSERT INTO workflow_lifecycle_events
                 (idempotency_key, tenant, workflow_id, run_id, workflow_type, event_type, payload, recorded_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
              [
                idempotencyKey,
                input.tenant,
                input.workflowId,
                input.runId,
                input.workflowType,
                input.eventType,
                JSON.stringify({ version: input.version, ...input.payload }),
                Date.now(),
              ],
            );
            return true;
          }, 'immediate'),
        ),
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
