import { Module } from '@nestjs/common';
import { WorkerHeartbeatRepository } from './worker-heartbeat.repository';
import { WorkerReadinessService } from './worker-readiness.service';
import { WorkerReadyGuard } from './worker-ready.guard';
import { SmokeRunService } from './smoke-run.service';
import { OperationsSnapshotService } from './operations-snapshot.service';
import { RemainingWorkRegistry } from './remaining-work.registry';
import { TemporalClientModule } from '@jobctrl/shared/temporal';

/** Needs JobctrlConfigModule and DbModule (both global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService, RemainingWorkRegistry],
  exports: [WorkerHeartbeatRepository, WorkerReadinessService, WorkerReadyGuard, SmokeRunService, OperationsSnapshotService, RemainingWorkRegistry, TemporalClientModule],
})
export class OperationsModule {}
