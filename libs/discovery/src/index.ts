import { DiscoveryRuntimeSettingsEntity } from './discovery-runtime-settings.entity';
import { SourceEntity } from './sources/source.entity';

export * from './adapters/source-adapter.model';
export * from './adapters/source-adapter.registry';
export * from './adapters/jobstreaming.adapter';
export * from './identity';
export * from './discovery-runtime-settings.entity';
export * from './discovery-runtime.dto';
export * from './discovery-runtime.repository';
export * from './discovery-runtime.service';
export * from './discovery.module';
export * from './discovery.activities';
export * from './sources/source.dto';
export * from './sources/source.entity';
export * from './sources/source.repository';
export * from './sources/source.service';

/** TypeORM entities this lib owns; the apps pass them to DbModule. */
export const DISCOVERY_ENTITIES = [DiscoveryRuntimeSettingsEntity, SourceEntity];
export * from './sources/source-address.rules';
