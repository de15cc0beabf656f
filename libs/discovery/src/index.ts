import { DiscoveryRuntimeSettingsEntity } from './discovery-runtime-settings.entity';

export * from './discovery-runtime-settings.entity';
export * from './discovery-runtime.dto';
export * from './discovery-runtime.repository';
export * from './discovery-runtime.service';
export * from './discovery.module';

/** TypeORM entities this lib owns; the apps pass them to DbModule. */
export const DISCOVERY_ENTITIES = [DiscoveryRuntimeSettingsEntity];
