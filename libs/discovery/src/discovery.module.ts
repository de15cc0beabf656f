import { Module } from '@nestjs/common';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { DiscoveryRuntimeService } from './discovery-runtime.service';
import { SourceRepository } from './sources/source.repository';
import { SourceService } from './sources/source.service';
import { TemporalClientModule } from '@jobctrl/shared/temporal';
import { JOBCTRL_CONFIG, type ResolvedConfig } from '@jobctrl/shared/config';
import { SOURCE_ADDRESS_POLICY, sourceAddressPolicyOf } from './sources/source-address.rules';

/** Needs DbModule (global) from the app. */
@Module({
  imports: [TemporalClientModule],
  providers: [
    DiscoveryRuntimeRepository,
    DiscoveryRuntimeService,
    SourceRepository,
    SourceService,
    // allowed_private_hosts and file_source_dirs: where a saved source may point (#15).
    { provide: SOURCE_ADDRESS_POLICY, useFactory: (config: ResolvedConfig) => sourceAddressPolicyOf(config), inject: [JOBCTRL_CONFIG] },
  ],
  exports: [DiscoveryRuntimeService, SourceService],
})
export class DiscoveryModule {}
