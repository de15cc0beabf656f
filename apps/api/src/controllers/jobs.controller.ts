import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AvailabilityService, JobQueryService, ListJobsQueryDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';

@Controller('v1/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobQueryService,
    private readonly availability: AvailabilityService,
  ) {}

  @Get()
  list(@Query() query: ListJobsQueryDto) {
    return this.jobs.list(query);
  }

  @Get(':jobKey')
  get(@Param('jobKey') jobKey: string) {
    return this.jobs.get(jobKey);
  }

  /** A foreground posting check: 202 {workflowId}; 429 {retryAfterSeconds} when the foreground share is spent. */
  @Post(':jobKey/availability-check')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  checkAvailability(@Param('jobKey') jobKey: string) {
    return this.availability.check(jobKey);
  }
}
