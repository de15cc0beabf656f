import { Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AvailabilityService, JobPreparationService, JobQueryService, ListJobsQueryDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('jobs')
@Controller('v1/jobs')
export class JobsController {
  constructor(
    private readonly jobs: JobQueryService,
    private readonly availability: AvailabilityService,
    private readonly preparation: JobPreparationService,
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

  @Post(':jobKey/prepare')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(404, 409, 503)
  @ApiOperation({
    summary: "Prepare one job again: Score → Tailor → Cover letter and its review pair",
    description:
      "Puts the job back to pending_score and starts its preparation workflow prep-{idempotencyKey} in full mode → 202 {workflowId}. " +
      'It runs like every other preparation: on the worker\'s activity slots, each spendful step behind the spend preflight ' +
      '(at the daily ceiling the job waits with prepStatus spend_ceiling_reached and goes on when the ceiling is raised or the day rolls over). ' +
      '409 {code: "preparation_running", workflowId} while a preparation of this job runs (it is not joined: it may not redo the stages the job passed), ' +
      '409 {code: "not_enriched"} while the job waits for its detail page; 404 for an unknown job; 503 without a ready worker. ' +
      "GET /v1/jobs/:jobKey says whether it is allowed now (actions.prepare).",
  })
  prepare(@Param('jobKey') jobKey: string) {
    return this.preparation.prepare(jobKey);
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
