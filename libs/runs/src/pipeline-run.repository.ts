import type { UnitOfWorkFactory } from '@jobctrl/shared/db';

export interface PipelineRunRow {
  runId: string;
  workflowId: string;
  stages: string[];
  sourceIds: string[] | null;
  blockedReason: string | null;
  /** The preparation batch's progress (null until its batch selected its jobs). */
  preparation: { selected: number; completed: number; failed: number } | null;
  createdAt: string;
}

interface RawRunRow {
  run_id: string;
  workflow_id: string;
  stages: string;
  source_ids: string | null;
  blocked_reason: string | null;
  preparation_progress: string | null;
  created_at: number;
}

function toRow(r: RawRunRow): PipelineRunRow {
  return {
    runId: r.run_id,
    workflowId: r.workflow_id,
    stages: JSON.parse(r.stages) as string[],
    sourceIds: r.source_ids ? (JSON.parse(r.source_ids) as string[]) : null,
    blockedReason: r.blocked_reason,
    preparation: r.preparation_progress ? (JSON.parse(r.preparation_progress) as PipelineRunRow['preparation']) : null,
    createdAt: new Date(r.created_at).toISOString(),
  };
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
    const rows: RawRunRow[] = await this.uow.run(({ manager }) => manager.query(`SELECT * FROM pipeline_runs WHERE run_id = ?`, [runId]));
    return rows.length === 0 ? null : toRow(rows[0]);
  }

  /** Newest first (ties by id, so pages never overlap), with the total for paging. */
  async list(page: { limit: number; offset: number }): Promise<{ items: PipelineRunRow[]; total: number }> {
    return this.uow.run(async ({ manager }) => {
      const rows: RawRunRow[] = await manager.query(`SELECT * FROM pipeline_runs ORDER BY created_at DESC, run_id DESC LIMIT ? OFFSET ?`, [page.limit, page.offset]);
      const [{ n }]: Array<{ n: number }> = await manager.query(`SELECT COUNT(*) AS n FROM pipeline_runs`);
      return { items: rows.map(toRow), total: n };
    });
  }

  /** Only moves forward: a retried or replayed write with older counts changes nothing. */
  async recordPreparationProgress(runId: string, progress: { selected: number; completed: number; failed: number }): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const rows: Array<{ preparation_progress: string | null }> = await m.query(`SELECT preparation_progress FROM pipeline_runs WHERE run_id = ?`, [runId]);
        const before = rows[0]?.preparation_progress ? (JSON.parse(rows[0].preparation_progress) as typeof progress) : null;
        if (rows.length === 0 || (before && before.completed + before.failed > progress.completed + progress.failed)) return;
        await m.query(`UPDATE pipeline_runs SET preparation_progress = ? WHERE run_id = ?`, [JSON.stringify(progress), runId]);
      }, 'immediate'),
    );
  }

  /** A run paused by the spend ceiling says so; null clears it. Unknown runs (recovery batches) are ignored. */
  async setBlocked(runId: string, reason: string | null): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`UPDATE pipeline_runs SET blocked_reason = ? WHERE run_id = ? AND blocked_reason IS NOT ?`, [reason, runId, reason]), 'immediate'),
    );
  }
}
