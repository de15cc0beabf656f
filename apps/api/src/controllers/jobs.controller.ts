import { Controller, Get, Param, Query } from '@nestjs/common';
import { JobQueryService, ListJobsQueryDto } from '@jobctrl/runs';

@Controller('v1/jobs')
export class JobsController {
  constructor(private readonly jobs: JobQueryService) {}

  @Get()
  list(@Query() query: ListJobsQueryDto) {
    return this.jobs.list(query);
  }

  @Get(':jobKey')
  get(@Param('jobKey') jobKey: string) {
    return this.jobs.get(jobKey);
  }
}
