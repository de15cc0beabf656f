import { Module } from '@nestjs/common';
import { TaskQueueStatsService } from './task-queue-stats.service';
import { TemporalClientService } from './temporal-client.service';

/** Needs JobctrlConfigModule (global) from the app. */
@Module({ providers: [TemporalClientService, TaskQueueStatsService], exports: [TemporalClientService, TaskQueueStatsService] })
export class TemporalClientModule {}
