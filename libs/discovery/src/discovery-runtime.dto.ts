import { IsInt, Max, Min } from 'class-validator';

export const MAX_PARALLEL_FAMILIES_LIMIT = 16;

/** PATCH /v1/discovery/runtime body (snake_case, like the other settings documents). */
export class UpdateDiscoveryRuntimeDto {
  /**
   * Families crawled concurrently per discovery run (default 1 = strictly one by one). Keep it plus
   * one (the live enrichment activity) below worker_activity_slots; see the worker-capacity analysis.
   */
  @IsInt({ message: 'max_parallel_families must be an integer' })
  @Min(1, { message: 'max_parallel_families must be at least 1' })
  @Max(MAX_PARALLEL_FAMILIES_LIMIT, { message: `max_parallel_families must be at most ${MAX_PARALLEL_FAMILIES_LIMIT}` })
  max_parallel_families!: number;
}

export interface DiscoveryRuntimeSettings {
  max_parallel_families: number;
  updated_at: string;
}
