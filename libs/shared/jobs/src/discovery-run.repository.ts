import type { UnitOfWorkFactory } from '@jobctrl/shared/db';

export type DiscoveryRunState = 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * What a discovery run has done so far, under its family + terminal spine: the spine moves once per
 * family, these move per job. Each never decreases by construction — membership and stream units are
 * only ever added, a job never returns to pending_enrichment, and a score is never cleared — so no
 * high-water mark needs storing.
 */
export interface DiscoveryProgressDetail {
  /** Postings the run's families committed (new or seen again). */
  jobsCommitted: number;
  /** Of those, jobs whose detail capture settled (enriched, source-only, robots-blocked or failed for good): moved on from pending_enrichment. */
  jobsEnriched: number;
  /** Of those, jobs with a score. */
  jobsScored: number;
  /** JobStreaming search units finished (present when the run has any). */
  unitsCompleted?: number;
}

/** A feed entry a family left out instead of failing its board (a blank title or company), and why. */
export interface SkippedFeedEntry {
  family: string;
  /** The source's name. */
  source: string;
  /** Where in the response: "[42]", "jobs[3]". */
  where: string;
  externalId: string | null;
  reason: string;
}

/** At most this many skipped entries are kept per family (a feed of blanks must not bloat the run). */
export const MAX_SKIPPED_PER_FAMILY = 50;

export interface DiscoveryRunRecord {
  runId: string;
  state: DiscoveryRunState;
  plan: unknown;
  progress: { completed: number; total: number };
  familiesFailed: Array<{ family: string; error: string | null }>;
  familiesCompleted: string[];
  /** Feed entries the completed families skipped, with their reasons (at most MAX_SKIPPED_PER_FAMILY each). */
  entriesSkipped: SkippedFeedEntry[];
  jobsDiscovered: number;
  detail: DiscoveryProgressDetail;
  createdAt: string;
  updatedAt: string;
  finishedAt: string | null;
}

/** A discovery run's durable record: frozen plan, monotonic progress, family outcomes, membership counts. */
export class DiscoveryRunRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /** Idempotent: a retried planning activity finds the run it already created and keeps its plan. */
  async create(runId: string, plan: unknown, progressTotal: number, now = Date.now()): Promise<unknown> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(
          `INSERT OR IGNORE INTO discovery_runs (run_id, state, plan, progress_total, created_at, updated_at) VALUES (?, 'running', ?, ?, ?, ?)`,
          [runId, JSON.stringify(plan), progressTotal, now, now],
        );
        const rows: Array<{ plan: string }> = await m.query(`SELECT plan FROM discovery_runs WHERE run_id = ?`, [runId]);
        return JSON.parse(rows[0].plan) as unknown;
      }, 'immediate'),
    );
  }

  /** Progress only moves forward: a replayed or late write can never make the bar go back. */
  async advance(runId: string, completed: number, now = Date.now()): Promise<void> {
    await this.uow.run(({ manager }) =>
      manager.query(`UPDATE discovery_runs SET progress_completed = MAX(progress_completed, MIN(?, progress_total)), updated_at = ? WHERE run_id = ?`, [completed, now, runId]),
    );
  }

  /**
   * One outcome per family: a retry overwrites its own row instead of adding one. `skipped`: the feed
   * entries the family left out (kept up to MAX_SKIPPED_PER_FAMILY).
   */
  async recordFamily(runId: string, family: string, status: 'completed' | 'failed', jobs: number, error: string | null, now = Date.now(), skipped: SkippedFeedEntry[] = []): Promise<void> {
    const kept = skipped.slice(0, MAX_SKIPPED_PER_FAMILY);
    await this.uow.run(({ manager }) =>
      manager.query(
        `INSERT INTO discovery_family_results (run_id, family, status, jobs, error, finished_at, skipped_json) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (run_id, family) DO UPDATE SET status = excluded.status, jobs = excluded.jobs, error = excluded.error, finished_at = excluded.finished_at,
           skipped_json = excluded.skipped_json`,
        [runId, family, status, jobs, error, now, kept.length ? JSON.stringify(kept) : null],
      ),
    );
  }

  async finish(runId: string, state: DiscoveryRunState, now = Date.now()): Promise<void> {
    await this.uow.run(({ manager }) =>
      manager.query(
        `UPDATE discovery_runs SET state = ?, finished_at = COALESCE(finished_at, ?), updated_at = ?,
           progress_completed = CASE WHEN ? = 'completed' THEN progress_total ELSE progress_completed END
         WHERE run_id = ? AND state = 'running'`,
        [state, now, now, state, runId],
      ),
    );
  }

  async finishedUnits(runId: string, sourceId: string): Promise<Set<string>> {
    const rows: Array<{ unit_key: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT unit_key FROM stream_units WHERE run_id = ? AND source_id = ?`, [runId, sourceId]),
    );
    return new Set(rows.map((r) => r.unit_key));
  }

  async markUnitFinished(runId: string, sourceId: string, unitKey: string, jobs: number, now = Date.now()): Promise<void> {
    await this.uow.run(({ manager }) =>
      manager.query(`INSERT OR IGNORE INTO stream_units (run_id, source_id, unit_key, jobs, finished_at) VALUES (?, ?, ?, ?, ?)`, [runId, sourceId, unitKey, jobs, now]),
    );
  }

  async get(runId: string): Promise<DiscoveryRunRecord | null> {
    return this.uow.run(async ({ manager }) => {
      const rows: Array<{ run_id: string; state: DiscoveryRunState; plan: string; progress_completed: number; progress_total: number; created_at: number; updated_at: number; finished_at: number | null }> =
        await manager.query(`SELECT * FROM discovery_runs WHERE run_id = ?`, [runId]);
      if (rows.length === 0) return null;
      const r = rows[0];
      const families: Array<{ family: string; status: string; error: string | null; skipped_json: string | null }> = await manager.query(
        `SELECT family, status, error, skipped_json FROM discovery_family_results WHERE run_id = ? ORDER BY family`,
        [runId],
      );
      // One pass over the membership: committed (= jobsDiscovered), settled enrichment, scored.
      const [counts]: Array<{ committed: number; enriched: number | null; scored: number | null }> = await manager.query(
        `SELECT COUNT(*) AS committed,
                SUM(CASE WHEN j.stage <> 'pending_enrichment' THEN 1 ELSE 0 END) AS enriched,
                SUM(CASE WHEN j.score IS NOT NULL THEN 1 ELSE 0 END) AS scored
           FROM discovery_run_jobs r JOIN jobs j ON j.job_key = r.job_key WHERE r.run_id = ?`,
        [runId],
      );
      const [units]: Array<{ n: number }> = await manager.query(`SELECT COUNT(*) AS n FROM stream_units WHERE run_id = ?`, [runId]);
      const detail: DiscoveryProgressDetail = { jobsCommitted: counts.committed, jobsEnriched: counts.enriched ?? 0, jobsScored: counts.scored ?? 0 };
      if (units.n > 0) detail.unitsCompleted = units.n;
      return {
        runId: r.run_id,
        state: r.state,
        plan: JSON.parse(r.plan),
        progress: { completed: r.progress_completed, total: r.progress_total },
        familiesFailed: families.filter((f) => f.status === 'failed').map((f) => ({ family: f.family, error: f.error })),
        familiesCompleted: families.filter((f) => f.status === 'completed').map((f) => f.family),
        entriesSkipped: families.flatMap((f) => (f.skipped_json ? (JSON.parse(f.skipped_json) as SkippedFeedEntry[]) : [])),
        jobsDiscovered: counts.committed,
        detail,
        createdAt: new Date(r.created_at).toISOString(),
        updatedAt: new Date(r.updated_at).toISOString(),
        finishedAt: r.finished_at === null ? null : new Date(r.finished_at).toISOString(),
      };
    });
  }
}
