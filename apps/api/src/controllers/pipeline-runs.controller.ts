import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, Query, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ListPipelineRunsQueryDto, PipelineRunService, StartPipelineRunDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('pipeline')
@Controller('v1/pipeline/runs')
export class PipelineRunsController {
  constructor(private readonly runs: PipelineRunService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(400, 409, 503)
  start(@Body() dto: StartPipelineRunDto) {
    return this.runs.start(dto);
  }

  /** Newest first, each run in the same view as GET /v1/pipeline/runs/:id. */
  @Get()
  @ApiErrors(400)
  list(@Query() query: ListPipelineRunsQueryDto) {
    return this.runs.list(query);
  }

  @Get(':id')
  @ApiErrors(400, 404)
  get(@Param('id', ParseUUIDPipe) id: string) {
    return this.runs.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(400, 404, 409, 503)
  cancel(@Param('id', ParseUUIDPipe) id: string) {
    return this.runs.cancel(id);
  }
}
