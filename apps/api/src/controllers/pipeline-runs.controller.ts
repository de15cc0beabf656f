import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { PipelineRunService, StartPipelineRunDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';

@Controller('v1/pipeline/runs')
export class PipelineRunsController {
  constructor(private readonly runs: PipelineRunService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  start(@Body() dto: StartPipelineRunDto) {
    return this.runs.start(dto);
  }

  @Get(':id')
  get(@Param('id', ParseUUIDPipe) id: string) {
    return this.runs.get(id);
  }

  @Post(':id/cancel')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  cancel(@Param('id', ParseUUIDPipe) id: string) {
    return this.runs.cancel(id);
  }
}
