import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { JobStage } from '@jobctrl/shared/jobs';

export interface JobStageRow {
  jobKey: string;
  stage: JobStage;
  updatedAt: number;
}

/** The live-events poller's read of recently touched jobs (GET /v1/events `job` events). */
export class JobStageChangesRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Jobs whose row changed at or after `since` (ms), newest first, at most `limit`. The poller
   * compares each stage with the one it last saw; a burst larger than `limit` within one poll only
   * loses notifications, never data (clients re-read the lists they show).
   */
  async touchedSince(since: number, limit: number): Promise<JobStageRow[]> {
    const rows: Array<{ job_key: string; stage: JobStage; updated_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT job_key, stage, updated_at FROM jobs WHERE updated_at >= ? ORDER BY updated_at DESC LIMIT ?`, [since, limit]),
    );
    return rows.map((r) => ({ jobKey: r.job_key, stage: r.stage, updatedAt: r.updated_at }));
  }

  /** The newest change time (0 on an empty store): where a fresh poller starts watching. */
  async newestChange(): Promise<number> {
    const rows: Array<{ t: number | null }> = await this.uow.run(({ manager }) => manager.query(`SELECT MAX(updated_at) AS t FROM jobs`));
    return rows[0]?.t ?? 0;
  }
}
