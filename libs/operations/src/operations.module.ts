import { Module } from '@nestjs/common';
import { WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { WorkerReadinessService } from './worker-readiness.service';
import { WorkerReadyGuard } from './worker-ready.guard';
import { SmokeRunService } from './smoke-run.service';
import { OperationsSnapshotService } from './operations-snapshot.service';
import { RemainingWorkRegistry } from './remaining-work.registry';
import { TemporalClientModule } from '@jobctrl/shared/temporal';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { LifecycleProjector } from '@jobctrl/shared/jobs';

/** Needs JobctrlConfigModule and DbModule (both global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [
    { provide: LifecycleProjector, useFactory: (uow: UnitOfWorkFactory) => new LifecycleProjector(uow), inject: [UnitOfWorkFactory] },
    WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService, RemainingWorkRegistry],
  exports: [LifecycleProjector, WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService, RemainingWorkRegistry, TemporalClientModule],
})
export class OperationsModule {}
