import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AvailabilityService, JobQueryService, ListJobsQueryDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('jobs')
@Controller('v1/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobQueryService,
    private readonly availability: AvailabilityService,
  ) {}

  @Get()
  @ApiErrors(400)
  list(@Query() query: ListJobsQueryDto) {
    return this.jobs.list(query);
  }

  @Get(':jobKey')
  @ApiErrors(404)
  get(@Param('jobKey') jobKey: string) {
    return this.jobs.get(jobKey);
  }

  /** A foreground posting check: 202 {workflowId}; 429 {retryAfterSeconds} when the foreground share is spent. */
  @Post(':jobKey/availability-check')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(404, 429, 503)
  checkAvailability(@Param('jobKey') jobKey: string) {
    return this.availability.check(jobKey);
  }
}
