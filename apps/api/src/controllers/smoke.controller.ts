import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { SmokeRunService, StartSmokeRunDto, WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

/** A worker-backed action: proves queue, slot limit and heartbeat end to end on the running stack. */
@ApiTags('operations')
@Controller('v1/pipeline/smoke')
export class SmokeController {
  constructor(private readonly smoke: SmokeRunService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(400, 503)
  start(@Body() dto: StartSmokeRunDto) {
    return this.smoke.start(dto);
  }

  @Get(':workflowId')
  @ApiErrors(404)
  get(@Param('workflowId') workflowId: string) {
    return this.smoke.get(workflowId);
  }
}
