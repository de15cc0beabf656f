import { Module } from '@nestjs/common';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { DiscoveryRuntimeService } from './discovery-runtime.service';
import { SourceRepository } from './sources/source.repository';
import { SourceService } from './sources/source.service';
import { TemporalClientModule } from '@jobctrl/shared/temporal';

/** Needs DbModule (global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [DiscoveryRuntimeRepository, DiscoveryRuntimeService, SourceRepository, SourceService],
  exports: [DiscoveryRuntimeService, SourceService],
})
export class DiscoveryModule {}
