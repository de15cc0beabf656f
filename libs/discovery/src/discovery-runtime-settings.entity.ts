import { Column, Entity, PrimaryColumn } from 'typeorm';

/**
 * Discovery Runtime settings live in SQLite (not config.json) because a run resolves them at planning
 * time and freezes them into its plan; a single row, id 1 (seeded by the migration).
 */
@Entity('discovery_runtime_settings')
export class DiscoveryRuntimeSettingsEntity {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ name: 'max_parallel_families', type: 'integer' })
  maxParallelFamilies!: number;

  @Column({ name: 'updated_at', type: 'integer' })
  updatedAt!: number;
}
