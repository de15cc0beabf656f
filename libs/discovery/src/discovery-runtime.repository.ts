import { Injectable } from '@nestjs/common';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { DiscoveryRuntimeSettingsEntity } from './discovery-runtime-settings.entity';

const SETTINGS_ROW_ID = 1;

@Injectable()
export class DiscoveryRuntimeRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async get(): Promise<DiscoveryRuntimeSettingsEntity> {
    return this.uow.run(async ({ manager }) => {
      const row = await manager.findOneBy(DiscoveryRuntimeSettingsEntity, { id: SETTINGS_ROW_ID });
      if (!row) throw new Error('discovery_runtime_settings row 1 is missing: run the database migrations (npm run db:migrate)');
      return row;
    });
  }

  async setMaxParallelFamilies(value: number, now = Date.now()): Promise<DiscoveryRuntimeSettingsEntity> {
    return this.uow.run(({ transaction }) =>
      transaction(async (manager) => {
        await manager.update(DiscoveryRuntimeSettingsEntity, { id: SETTINGS_ROW_ID }, { maxParallelFamilies: value, updatedAt: now });
        return manager.findOneByOrFail(DiscoveryRuntimeSettingsEntity, { id: SETTINGS_ROW_ID });
      }, 'immediate'),
    );
  }
}
