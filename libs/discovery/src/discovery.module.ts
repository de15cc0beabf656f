import { Module } from '@nestjs/common';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { DiscoveryRuntimeService } from './discovery-runtime.service';

/** Needs DbModule (global) from the app. */
@Module({
  providers: [DiscoveryRuntimeRepository, DiscoveryRuntimeService],
  exports: [DiscoveryRuntimeService],
})
export class DiscoveryModule {}
