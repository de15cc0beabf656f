import { Module } from '@nestjs/common';
import { WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { WorkerReadinessService } from './worker-readiness.service';
import { WorkerReadyGuard } from './worker-ready.guard';
import { SmokeRunService } from './smoke-run.service';
import { OperationsSnapshotService } from './operations-snapshot.service';
import { RemainingWorkRegistry } from './remaining-work.registry';
import { discoveryRemainingWork, preparationRemainingWork } from './remaining-work.providers';
import { TemporalClientModule } from '@jobctrl/shared/temporal';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { LifecycleProjector, RemainingWorkRepository } from '@jobctrl/shared/jobs';

/** The registry with the pipeline's stages registered: both count their remaining work in SQLite. */
function remainingWorkRegistry(uow: UnitOfWorkFactory): RemainingWorkRegistry {
  const registry = new RemainingWorkRegistry();
  const repo = new RemainingWorkRepository(uow);
  registry.register(discoveryRemainingWork(repo));
  registry.register(preparationRemainingWork(repo));
  return registry;
}

/** Needs JobctrlConfigModule and DbModule (both global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [
    { provide: LifecycleProjector, useFactory: (uow: UnitOfWorkFactory) => new LifecycleProjector(uow), inject: [UnitOfWorkFactory] },
    { provide: RemainingWorkRegistry, useFactory: remainingWorkRegistry, inject: [UnitOfWorkFactory] },
    WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService],
  exports: [LifecycleProjector, WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService, RemainingWorkRegistry, TemporalClientModule],
})
export class OperationsModule {}
