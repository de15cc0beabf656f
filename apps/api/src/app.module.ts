import { DynamicModule, Module } from '@nestjs/common';
import { DISCOVERY_ENTITIES, DiscoveryModule } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES, OperationsModule } from '@jobctrl/operations';
import { RunsModule } from '@jobctrl/runs';
import { JobctrlConfigModule, ResolvedConfig } from '@jobctrl/shared/config';
import { DbModule } from '@jobctrl/shared/db';
import { CompensationController } from './controllers/compensation.controller';
import { AvailabilityController } from './controllers/availability.controller';
import { ApplyController } from './controllers/apply.controller';
import { DiscoveryRuntimeController } from './controllers/discovery-runtime.controller';
import { EventsController } from './controllers/events.controller';
import { HealthController } from './controllers/health.controller';
import { JobsController } from './controllers/jobs.controller';
import { PipelineRunsController } from './controllers/pipeline-runs.controller';
import { ProfileController } from './controllers/profile.controller';
import { OperationsController } from './controllers/operations.controller';
import { SettingsController } from './controllers/settings.controller';
import { SmokeController } from './controllers/smoke.controller';
import { SourcesController } from './controllers/sources.controller';
import { SpendController } from './controllers/spend.controller';

/** Wiring only: controllers and the libs' modules. */
@Module({})
export class AppModule {
  static forRoot(config: ResolvedConfig): DynamicModule {
    return {
      module: AppModule,
      imports: [
        JobctrlConfigModule.forRoot(config),
        DbModule.forRoot({ databasePath: config.databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] }),
        OperationsModule,
        DiscoveryModule,
        RunsModule,
      ],
      controllers: [HealthController, OperationsController, SettingsController, DiscoveryRuntimeController, SourcesController, PipelineRunsController, JobsController, SmokeController, ProfileController, SpendController, CompensationController, AvailabilityController, ApplyController, EventsController],
    };
  }
}
