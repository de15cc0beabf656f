import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { SmokeRunService, StartSmokeRunDto, WorkerReadyGuard } from '@jobctrl/operations';

/** A worker-backed action: proves queue, slot limit and heartbeat end to end on the running stack. */
@Controller('v1/pipeline/smoke')
export class SmokeController {
  constructor(private readonly smoke: SmokeRunService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  start(@Body() dto: StartSmokeRunDto) {
    return this.smoke.start(dto);
  }

  @Get(':workflowId')
  get(@Param('workflowId') workflowId: string) {
    return this.smoke.get(workflowId);
  }
}
