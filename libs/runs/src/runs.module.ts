import { Module } from '@nestjs/common';
import { TemporalClientModule } from '@jobctrl/shared/temporal';
import { DiscoveryModule } from '@jobctrl/discovery';
import { ProfileService } from './profile/profile.service';
import { JobQueryService } from './job-query.service';
import { PipelineRunService } from './pipeline-run.service';
import { SpendService } from './spend/spend.service';
import { CompensationRefreshService } from './compensation/compensation-refresh.service';
import { AvailabilityService } from './availability/availability.service';

/** The API side of preparation: runs, jobs, profile, spend, compensation refreshes and posting checks. Needs DbModule and the config module (global) from the app. */
@Module({
  imports: [TemporalClientModule, DiscoveryModule],
  providers: [PipelineRunService, JobQueryService, ProfileService, SpendService, CompensationRefreshService, AvailabilityService],
  exports: [PipelineRunService, JobQueryService, ProfileService, SpendService, CompensationRefreshService, AvailabilityService],
})
export class RunsModule {}
