import { WorkerHeartbeatEntity } from './worker-heartbeat.entity';

export * from './eta.rules';
export * from './heartbeat.writer';
export * from './lifecycle.activities';
export * from './operations-snapshot.rules';
export * from './operations-snapshot.service';
export * from './operations.module';
export * from './remaining-work.registry';
export * from './remaining-work.providers';
export * from './smoke.activities';
export * from './smoke-run.dto';
export * from './smoke-run.service';
export * from './worker-heartbeat.entity';
export * from './worker-heartbeat.model';
export * from './worker-heartbeat.repository';
export * from './worker-liveness';
export * from './worker-ready.guard';
export * from './worker-readiness.rules';
export * from './worker-readiness.service';

/** TypeORM entities this lib owns; the apps pass them to DbModule. */
export const OPERATIONS_ENTITIES = [WorkerHeartbeatEntity];
