import { Module } from '@nestjs/common';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { DiscoveryRuntimeService } from './discovery-runtime.service';
import { SourceRepository } from './sources/source.repository';
import { SourceService } from './sources/source.service';
import { JobQueryService } from './runs/job-query.service';
import { PipelineRunService } from './runs/pipeline-run.service';
import { TemporalClientModule } from '@jobctrl/shared/temporal';

/** Needs DbModule (global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [DiscoveryRuntimeRepository, DiscoveryRuntimeService, SourceRepository, SourceService, PipelineRunService, JobQueryService],
  exports: [DiscoveryRuntimeService, SourceService, PipelineRunService, JobQueryService],
})
export class DiscoveryModule {}
