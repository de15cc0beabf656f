import { Module } from '@nestjs/common';
import { TemporalClientService } from './temporal-client.service';

/** Needs JobctrlConfigModule (global) from the app. */
@Module({ providers: [TemporalClientService], exports: [TemporalClientService] })
export class TemporalClientModule {}
