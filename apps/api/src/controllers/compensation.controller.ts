import { Body, Controller, Get, HttpCode, Param, ParseUUIDPipe, Post, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CompensationRefreshService, StartCompensationRefreshDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

@ApiTags('compensation')
@Controller('v1/compensation/refresh')
export class CompensationController {
  constructor(private readonly refreshes: CompensationRefreshService) {}

  @Post()
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(400, 503)
  start(@Body() dto: StartCompensationRefreshDto) {
    return this.refreshes.start(dto);
  }

  @Get(':refreshId')
  @ApiErrors(400, 404)
  get(@Param('refreshId', ParseUUIDPipe) refreshId: string) {
    return this.refreshes.get(refreshId);
  }
}
