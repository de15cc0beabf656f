import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { LifecycleEventRepository } from './lifecycle-event.repository';
import { foldRunProjection, RunProjection } from './run-projection.rules';

const CURSOR = 'workflow_runs';

/**
 * Refreshes workflow_run_projections from workflow_lifecycle_events, after a cursor, in one writer
 * transaction: either the projection rows and the cursor move together, or neither does and the
 * committed events wait for the next refresh.
 */
export class LifecycleProjector {
  private readonly events: LifecycleEventRepository;

  constructor(
    private readonly uow: UnitOfWorkFactory,
    /** Test seam: runs inside the transaction just before the cursor moves. */
    private readonly beforeCommit: () => Promise<void> = async () => undefined,
  ) {
    this.events = new LifecycleEventRepository(uow);
  }

  async refresh(batch = 500): Promise<{ folded: number; cursor: number }> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const cursorRows: Array<{ last_event_id: number }> = await m.query(`SELECT last_event_id FROM projection_cursors WHERE name = ?`, [CURSOR]);
        let cursor = cursorRows[0]?.last_event_id ?? 0;
        const events = await this.events.readAfter(m, cursor, batch);
        for (const e of events) {
          await save(m, foldRunProjection(await load(m, e.workflowId, e.runId), e));
          cursor = e.id;
        }
        await this.beforeCommit();
        await m.query(
          `INSERT INTO projection_cursors (name, last_event_id) VALUES (?, ?)
           ON CONFLICT(name) DO UPDATE SET last_event_id = excluded.last_event_id`,
          [CURSOR, cursor],
        );
        return { folded: events.length, cursor };
      }, 'immediate'),
    );
  }

  async get(workflowId: string): Promise<RunProjection[]> {
    return this.uow.run(({ manager }) =>
      manager.query(`${SELECT_PROJECTION} WHERE workflow_id = ? ORDER BY started_at`, [workflowId]),
    );
  }
}

const SELECT_PROJECTION = `SELECT workflow_id AS workflowId, run_id AS runId, tenant, workflow_type AS workflowType, status,
  started_at AS startedAt, finished_at AS finishedAt, outcome, last_event_id AS lastEventId FROM workflow_run_projections`;

async function load(m: EntityManager, workflowId: string, runId: string): Promise<RunProjection | null> {
  const rows: RunProjection[] = await m.query(`${SELECT_PROJECTION} WHERE workflow_id = ? AND run_id = ?`, [workflowId, runId]);
  return rows[0] ?? null;
}

async function save(m: EntityManager, p: RunProjection): Promise<void> {
  await m.query(
    `INSERT INTO workflow_run_projections
       (workflow_id, run_id, tenant, workflow_type, status, started_at, finished_at, outcome, last_event_id)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT(workflow_id, run_id) DO UPDATE SET status = excluded.status, started_at = excluded.started_at,
       finished_at = excluded.finished_at, outcome = excluded.outcome, last_event_id = excluded.last_event_id`,
    [p.workflowId, p.runId, p.tenant, p.workflowType, p.status, p.startedAt, p.finishedAt, p.outcome, p.lastEventId],
  );
}
