import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { SourceService } from '@jobctrl/discovery';
import { PipelineRunService, StartPipelineRunDto } from '@jobctrl/preparation';
import { WorkerReadyGuard } from '@jobctrl/operations';

@Controller('v1/pipeline/runs')
export class PipelineRunsController {
  constructor(
    private readonly runs: PipelineRunService,
    private readonly sources: SourceService,
  ) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  async start(@Body() dto: StartPipelineRunDto) {
    // The sources belong to discovery, the run to preparation; a domain lib cannot ask another, so
    // the app composes the two checks (until a runs feature lib does).
    if (dto.sourceIds && dto.stages.includes('discover')) await this.sources.requireRunnable(dto.sourceIds);
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
