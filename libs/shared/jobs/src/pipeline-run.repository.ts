import type { UnitOfWorkFactory } from '@jobctrl/shared/db';

export interface PipelineRunRow {
  runId: string;
  workflowId: string;
  stages: string[];
  sourceIds: string[] | null;
  blockedReason: string | null;
  createdAt: string;
}

export class PipelineRunRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async create(run: { runId: string; workflowId: string; stages: string[]; sourceIds: string[] | null }, now = Date.now()): Promise<void> {
    await this.uow.run(({ manager }) =>
      manager.query(`INSERT INTO pipeline_runs (run_id, workflow_id, stages, source_ids, created_at) VALUES (?, ?, ?, ?, ?)`, [
        run.runId,
        run.workflowId,
        JSON.stringify(run.stages),
        run.sourceIds ? JSON.stringify(run.sourceIds) : null,
        now,
      ]),
    );
  }

  async remove(runId: string): Promise<void> {
    await this.uow.run(({ manager }) => manager.query(`DELETE FROM pipeline_runs WHERE run_id = ?`, [runId]));
  }

  async get(runId: string): Promise<PipelineRunRow | null> {
    const rows: Array<{ run_id: string; workflow_id: string; stages: string; source_ids: string | null; blocked_reason: string | null; created_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT * FROM pipeline_runs WHERE run_id = ?`, [runId]),
    );
    if (rows.length === 0) return null;
    const r = rows[0];
    return {
      runId: r.run_id,
      workflowId: r.workflow_id,
      stages: JSON.parse(r.stages) as string[],
      sourceIds: r.source_ids ? (JSON.parse(r.source_ids) as string[]) : null,
      blockedReason: r.blocked_reason,
      createdAt: new Date(r.created_at).toISOString(),
    };
  }

  /** A run paused by the spend ceiling says so; null clears it. Unknown runs (recovery batches) are ignored. */
  async setBlocked(runId: string, reason: string | null): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`UPDATE pipeline_runs SET blocked_reason = ? WHERE run_id = ? AND blocked_reason IS NOT ?`, [reason, runId, reason]), 'immediate'),
    );
  }
}
