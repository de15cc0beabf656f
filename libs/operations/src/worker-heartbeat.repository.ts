import { Injectable } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { WorkerHeartbeatEntity } from './worker-heartbeat.entity';
import type { WorkerHeartbeat } from './worker-heartbeat.model';

/**
 * How long a silent worker's row is kept. Far beyond any stale window (seconds to minutes), so a
 * paused or busy worker is never pruned while health could still call it stale rather than missing;
 * the rows of workers that died (crash, kill -9: no clean-stop removal) would otherwise pile up forever.
 */
export const HEARTBEAT_RETENTION_MS = 24 * 60 * 60_000;

/** The only code that reads or writes worker_heartbeats. Each call is its own unit of work. */
@Injectable()
export class WorkerHeartbeatRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Records this worker's heartbeat and, in the same unit of work, prunes rows of other workers that
   * have been silent longer than `retentionMs` (measured on this heartbeat's clock): every live worker
   * writes, so dead ones are swept without a separate timer.
   */
  async upsert(hb: WorkerHeartbeat, retentionMs = HEARTBEAT_RETENTION_MS): Promise<void> {
    await this.uow.run(async ({ manager }) => {
      await manager.upsert(
        WorkerHeartbeatEntity,
        { ...hb, payload: JSON.stringify(hb.payload) },
        { conflictPaths: ['workerId'] },
      );
      await manager
        .createQueryBuilder()
        .delete()
        .from(WorkerHeartbeatEntity)
        .where('recorded_at < :cutoff AND worker_id <> :self', { cutoff: hb.recordedAt - retentionMs, self: hb.workerId })
        .execute();
    });
  }

  async remove(workerId: string): Promise<void> {
    await this.uow.run(({ manager }) => manager.delete(WorkerHeartbeatEntity, { workerId }).then(() => undefined));
  }

  /** When each of these workers last wrote its heartbeat; a worker with no row is missing from the map. */
  async lastRecordedAt(workerIds: readonly string[]): Promise<Map<string, number>> {
    if (workerIds.length === 0) return new Map();
    const rows: Array<{ worker_id: string; recorded_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT worker_id, recorded_at FROM worker_heartbeats WHERE worker_id IN (${workerIds.map(() => '?').join(', ')})`, [...workerIds]),
    );
    return new Map(rows.map((r) => [r.worker_id, Number(r.recorded_at)]));
  }

  /** Raw rows for one database identity; schema validation is the read model's job. */
  async listForDatabase(databasePath: string): Promise<WorkerHeartbeatEntity[]> {
    return this.uow.run(({ manager }) =>
      manager.find(WorkerHeartbeatEntity, { where: { databasePath }, order: { recordedAt: 'DESC' } }),
    );
  }
}
