import type { UnitOfWorkFactory } from '@jobctrl/shared/db';

/** One smoke hold's attempt as it starts: where it runs and the remote concurrency it saw. */
export interface SmokeProbeStart {
  workflowId: string;
  runId: string;
  activityId: string;
  attempt: number;
  observedActive: number;
  startedAt: number;
}

/**
 * The only code that reads or writes smoke_probes. Each call is its own unit of work, so a probe
 * exercises the database path of real stage work (a connection opened and closed per write).
 */
export class SmokeProbeRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /** Records a probe's start and returns its id. */
  async start(p: SmokeProbeStart): Promise<number> {
    return this.uow.run(async ({ manager }) => {
      await manager.query(
        `INSERT INTO smoke_probes (workflow_id, run_id, activity_id, attempt, observed_active, started_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
        [p.workflowId, p.runId, p.activityId, p.attempt, p.observedActive, p.startedAt],
      );
      // Same connection, so this is the row just inserted (the driver runs INSERTs without rows back).
      const rows: Array<{ id: number }> = await manager.query('SELECT last_insert_rowid() AS id');
      return rows[0].id;
    });
  }

  async finish(probeId: number, finishedAt: number): Promise<void> {
    await this.uow.run(({ manager }) => manager.query(`UPDATE smoke_probes SET finished_at = ? WHERE id = ?`, [finishedAt, probeId]));
  }
}
