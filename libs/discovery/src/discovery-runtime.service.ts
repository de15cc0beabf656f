import { Injectable } from '@nestjs/common';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import type { DiscoveryRuntimeSettingsEntity } from './discovery-runtime-settings.entity';
import type { DiscoveryRuntimeSettings, UpdateDiscoveryRuntimeDto } from './discovery-runtime.dto';

@Injectable()
export class DiscoveryRuntimeService {
  constructor(private readonly repository: DiscoveryRuntimeRepository) {}

  async get(): Promise<DiscoveryRuntimeSettings> {
    return toDocument(await this.repository.get());
  }

  async update(dto: UpdateDiscoveryRuntimeDto): Promise<DiscoveryRuntimeSettings> {
    return toDocument(await this.repository.setMaxParallelFamilies(dto.max_parallel_families));
  }
}

function toDocument(row: DiscoveryRuntimeSettingsEntity): DiscoveryRuntimeSettings {
  return { max_parallel_families: row.maxParallelFamilies, updated_at: new Date(row.updatedAt).toISOString() };
}
