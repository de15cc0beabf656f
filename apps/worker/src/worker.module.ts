import { DynamicModule, Module } from '@nestjs/common';
import { DISCOVERY_ENTITIES } from '@jobctrl/discovery';
import { OPERATIONS_ENTITIES, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { JobctrlConfigModule, ResolvedConfig } from '@jobctrl/shared/config';
import { DbModule } from '@jobctrl/shared/db';
import { WorkerRuntime } from './worker-runtime';

/** Headless Nest context: resolves the libs' dependencies for the activity factories. */
@Module({})
export class WorkerModule {
  static forRoot(config: ResolvedConfig): DynamicModule {
    return {
      module: WorkerModule,
      imports: [
        JobctrlConfigModule.forRoot(config),
        DbModule.forRoot({ databasePath: config.databasePath, entities: [...OPERATIONS_ENTITIES, ...DISCOVERY_ENTITIES] }),
      ],
      providers: [WorkerHeartbeatRepository, WorkerRuntime],
    };
  }
}
