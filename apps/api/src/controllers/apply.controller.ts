import { createReadStream } from 'node:fs';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, StreamableFile, UseGuards } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { ApplyService, SaveAnswersDto, StartApplyDto, VerifyApplicationDto } from '@jobctrl/runs';
import { WorkerReadyGuard } from '@jobctrl/operations';
import { ApiErrors } from '../openapi/api-errors.decorator';

/** Approval, answers, apply and its screenshots (issue #12). */
@ApiTags('apply')
@Controller('v1/jobs/:jobKey')
export class ApplyController {
  constructor(private readonly apply: ApplyService) {}

  /** 200 the approval; 409 naming what is missing. */
  @Post('approval')
  @HttpCode(200)
  @ApiErrors(404, 409)
  approve(@Param('jobKey') jobKey: string) {
    return this.apply.approve(jobKey);
  }

  @Delete('approval')
  @HttpCode(204)
  @ApiErrors(404)
  async revoke(@Param('jobKey') jobKey: string): Promise<void> {
    await this.apply.revoke(jobKey);
  }

  @Put('answers')
  @ApiErrors(400, 404)
  saveAnswers(@Param('jobKey') jobKey: string, @Body() dto: SaveAnswersDto) {
    return this.apply.saveAnswers(jobKey, dto);
  }

  /** 202 {workflowId}; 409 {code} for each refusal; 429 when the posting check it needs cannot be charged. */
  @Post('apply')
  @HttpCode(202)
  @UseGuards(WorkerReadyGuard)
  @ApiErrors(400, 404, 409, 429, 503)
  start(@Param('jobKey') jobKey: string, @Body() dto: StartApplyDto) {
    return this.apply.apply(jobKey, dto);
  }

  /** 200 the application; 409 `application_not_awaiting_verification` unless it is needs_verification. */
  @Post('application/verification')
  @HttpCode(200)
  @ApiErrors(400, 404, 409)
  verify(@Param('jobKey') jobKey: string, @Body() dto: VerifyApplicationDto) {
    return this.apply.verify(jobKey, dto);
  }

  @Get('screenshots/:name')
  @ApiErrors(404)
  async screenshot(@Param('jobKey') jobKey: string, @Param('name') name: string): Promise<StreamableFile> {
    const file = await this.apply.screenshot(jobKey, name);
    return new StreamableFile(createReadStream(file.path), { type: file.contentType });
  }
}
