import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { CompensationRefreshService, StartCompensationRefreshDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';

@Controller('v1/compensation/refresh')
export class CompensationController {
  constructor(private readonly refreshes: CompensationRefreshService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  start(@Body() dto: StartCompensationRefreshDto) {
    return this.refreshes.start(dto);
  }

  @Get(':refreshId')
  get(@Param('refreshId', ParseUUIDPipe) refreshId: string) {
    return this.refreshes.get(refreshId);
  }
}
