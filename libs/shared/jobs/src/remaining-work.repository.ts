import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { PREPARATION_PENDING_STAGES } from './job.model';

/** The stages a job still has pipeline work in, from enrichment to its cover letter. */
export const REMAINING_WORK_STAGES = ['pending_enrichment', ...PREPARATION_PENDING_STAGES] as const;
export type RemainingWorkStage = (typeof REMAINING_WORK_STAGES)[number];

/**
 * Read-only counts of the work the pipeline has not done yet, for the operations ETA: jobs per
 * pending stage, and the source families running discovery runs have not finished. Each method is
 * one short read; nothing here writes.
 */
export class RemainingWorkRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /** Jobs in each pending stage (every stage present, zero when empty). */
  async jobsByPendingStage(): Promise<Record<RemainingWorkStage, number>> {
    const marks = REMAINING_WORK_STAGES.map(() => '?').join(', ');
    const rows: Array<{ stage: RemainingWorkStage; n: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT stage, COUNT(*) AS n FROM jobs WHERE stage IN (${marks}) GROUP BY stage`, [...REMAINING_WORK_STAGES]),
    );
    const counts = Object.fromEntries(REMAINING_WORK_STAGES.map((s) => [s, 0])) as Record<RemainingWorkStage, number>;
    for (const r of rows) counts[r.stage] = Number(r.n);
    return counts;
  }

  /**
   * Families of running discovery runs without an outcome yet: each is one discoverySourceFamily
   * activity still to finish. The plan is the frozen one, so a family added to the sources later
   * is not counted.
   */
  async unfinishedDiscoveryFamilies(): Promise<number> {
    const rows: Array<{ n: number | null }> = await this.uow.run(({ manager }) =>
      manager.query(
        `SELECT SUM(MAX(0, json_array_length(r.plan, '$.families') -
           (SELECT COUNT(*) FROM discovery_family_results f WHERE f.run_id = r.run_id))) AS n
         FROM discovery_runs r WHERE r.state = 'running'`,
      ),
    );
    return Number(rows[0]?.n ?? 0);
  }
}
