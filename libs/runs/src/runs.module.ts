import { Module } from '@nestjs/common';
import { TemporalClientModule } from '@jobctrl/shared/temporal';
import { DiscoveryModule } from '@jobctrl/discovery';
import { ProfileService } from './profile/profile.service';
import { JobQueryService } from './job-query.service';
import { PipelineRunService } from './pipeline-run.service';
import { SpendService } from './spend/spend.service';
import { CompensationRefreshService } from './compensation/compensation-refresh.service';
import { AvailabilityService } from './availability/availability.service';
import { ApplyService } from './apply/apply.service';
import { LiveEventsService } from './events/live-events.service';
import { JobPreparationService } from './preparation/job-preparation.service';

/** The API side of preparation: runs, jobs, profile, spend, compensation refreshes, posting checks, applying and the live events. Needs DbModule and the config module (global) from the app. */
@Module({
  imports: [TemporalClientModule, DiscoveryModule],
  providers: [PipelineRunService, JobQueryService, ProfileService, SpendService, CompensationRefreshService, AvailabilityService, ApplyService, LiveEventsService, JobPreparationService],
  exports: [PipelineRunService, JobQueryService, ProfileService, SpendService, CompensationRefreshService, AvailabilityService, ApplyService, LiveEventsService, JobPreparationService],
})
export class RunsModule {}
