import { Injectable } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { WorkerHeartbeatEntity } from './worker-heartbeat.entity';
import type { WorkerHeartbeat } from './worker-heartbeat.model';

/** The only code that reads or writes worker_heartbeats. Each call is its own unit of work. */
@Injectable()
export class WorkerHeartbeatRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async upsert(hb: WorkerHeartbeat): Promise<void> {
    await this.uow.run(async ({ manager }) => {
      await manager.upsert(
        WorkerHeartbeatEntity,
        { ...hb, payload: JSON.stringify(hb.payload) },
        { conflictPaths: ['workerId'] },
      );
    });
  }

  async remove(workerId: string): Promise<void> {
    await this.uow.run(({ manager }) => manager.delete(WorkerHeartbeatEntity, { workerId }).then(() => undefined));
  }

  /** Raw rows for one database identity; schema validation is the read model's job. */
  async listForDatabase(databasePath: string): Promise<WorkerHeartbeatEntity[]> {
    return this.uow.run(({ manager }) =>
      manager.find(WorkerHeartbeatEntity, { where: { databasePath }, order: { recordedAt: 'DESC' } }),
    );
  }
}
