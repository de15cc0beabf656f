import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { LifecycleEventRow } from './run-projection.rules';

/** A lifecycle event as a workflow reports it; the store adds its id. */
export type NewLifecycleEvent = Omit<LifecycleEventRow, 'id' | 'payload'> & {
  /** The exact tenant/workflow/run/event-type key (lifecycleIdempotencyKey in the contracts). */
  idempotencyKey: string;
  payload: Record<string, unknown>;
};

/**
 * The lifecycle event store (workflow_lifecycle_events): the activity that records workflow starts and
 * outcomes appends to it, the LifecycleProjector beside it folds it into run projections.
 */
export class LifecycleEventRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Appends the event unless one with its idempotency key is already stored, so a retry after a
   * committed write is a no-op. Returns whether this call inserted it.
   */
  async insertIfAbsent(e: NewLifecycleEvent): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const existing: unknown[] = await m.query(`SELECT 1 FROM workflow_lifecycle_events WHERE idempotency_key = ?`, [e.idempotencyKey]);
        if (existing.length > 0) return false;
        await m.query(
          `INSERT INTO workflow_lifecycle_events
             (idempotency_key, tenant, workflow_id, run_id, workflow_type, event_type, payload, recorded_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
          [e.idempotencyKey, e.tenant, e.workflowId, e.runId, e.workflowType, e.eventType, JSON.stringify(e.payload), e.recordedAt],
        );
        return true;
      }, 'immediate'),
    );
  }

  /**
   * Up to `limit` events after `cursor`, in id order. Takes the caller's transaction: the projector
   * reads, folds and moves its cursor in one writer transaction, so all three commit together.
   */
  async readAfter(m: EntityManager, cursor: number, limit: number): Promise<LifecycleEventRow[]> {
    return m.query(
      `SELECT id, tenant, workflow_id AS workflowId, run_id AS runId, workflow_type AS workflowType,
              event_type AS eventType, payload, recorded_at AS recordedAt
         FROM workflow_lifecycle_events WHERE id > ? ORDER BY id LIMIT ?`,
      [cursor, limit],
    );
  }
}
