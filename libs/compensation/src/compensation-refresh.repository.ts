import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { CompensationRefreshCounts } from '@jobctrl/pipeline/contracts';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { CompensationResult } from './compensation.types';
import type { CompensationSummary } from './compensation.summary';
import type { SourceIdentity } from './compensation-identity';
import type { JobCompensationInputs, StoredCompensationStatement } from './compensation-rows';

/** queued: requested, its activity not started yet; running: a coordinator owns it. */
export type RefreshState = 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';

/** A refresh's counts, as the refresh activity returns them (one shape, named in the contracts). */
export type RefreshCounts = CompensationRefreshCounts;

export interface RefreshView extends RefreshCounts {
  refreshId: string;
  state: RefreshState;
  slots: number;
  error: string | null;
  createdAt: string;
  finishedAt: string | null;
}

export interface CachedDetermination {
  id: string;
  result: CompensationResult;
}

/** One published row of a job: where it came from, what it said, and the determination it got. */
export interface PublishedRow {
  sourceId: string;
  externalJobId: string;
  fieldPath: string;
  textSha256: string;
  text: string;
  /** null when the row's determination failed (`error` says why): its pay is unknown, not absent. */
  determinationId: string | null;
  result: CompensationResult | null;
  error?: string;
}

/**
 * The SQL of compensation refreshes (tables of migration 1765800000000): the determination cache,
 * refresh rows and their counts, per-job leases, and publication. Every method is one unit of work,
 * so a caller that runs leaves concurrently gets one connection per leaf. Lease and publish
 * statements compare the owner and the expiry in the same statement that changes them: an owner
 * whose lease expired or was taken over cannot renew it or publish through it.
 */
export class CompensationRefreshRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async findDetermination(identityKey: string, version: string): Promise<CachedDetermination | null> {
    const rows: Array<{ id: string; result_json: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT id, result_json FROM compensation_determinations WHERE identity_key = ? AND version = ?`, [identityKey, version]),
    );
    return rows[0] ? { id: rows[0].id, result: JSON.parse(rows[0].result_json) as CompensationResult } : null;
  }

  /**
   * Stores an accepted determination; when another leaf (or refresh) stored the same identity and
   * version first, that row wins and its id is returned, so equal inputs share one cache id.
   */
  async saveDetermination(identity: SourceIdentity, version: string, result: CompensationResult, now = Date.now()): Promise<CachedDetermination> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(
          `INSERT INTO compensation_determinations (id, identity_key, version, source_id, external_job_id, field_path, text_sha256, method, result_json, created_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (identity_key, version) DO NOTHING`,
          [randomUUID(), identity.key, version, identity.sourceId, identity.externalJobId, identity.fieldPath, identity.textSha256, result.method, JSON.stringify(result), now],
        );
        const rows: Array<{ id: string; result_json: string }> = await m.query(`SELECT id, result_json FROM compensation_determinations WHERE identity_key = ? AND version = ?`, [identity.key, version]);
        return { id: rows[0].id, result: JSON.parse(rows[0].result_json) as CompensationResult };
      }, 'immediate'),
    );
  }

  /** The API's record of a requested refresh, before any worker has it. */
  async queueRefresh(refreshId: string, now = Date.now()): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`INSERT INTO compensation_refreshes (id, owner, state, slots, created_at) VALUES (?, '', 'queued', 0, ?)`, [refreshId, now]), 'immediate'),
    );
  }

  /**
   * A coordinator takes the refresh (a retried activity is a new owner and restarts the counts).
   * false: the refresh already ended (cancelled or failed while queued), so there is nothing to run.
   */
  async startRefresh(refreshId: string, owner: string, slots: number, opts: { restart?: boolean } = {}, now = Date.now()): Promise<boolean> {
    // `restart`: a refresh id that is reused on purpose (a job's own classification before each of
    // its preparations) runs again whatever its last run ended as.
    const reusable = opts.restart ? '' : `WHERE compensation_refreshes.state IN ('queued', 'running')`;
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(
          `INSERT INTO compensation_refreshes (id, owner, state, slots, created_at) VALUES (?, ?, 'running', ?, ?)
           ON CONFLICT (id) DO UPDATE SET owner = excluded.owner, state = 'running', slots = excluded.slots,
             jobs = 0, admitted = 0, completed = 0, cached = 0, failed = 0, published = 0, error = NULL, finished_at = NULL
           ${reusable}`,
          [refreshId, owner, slots, now],
        );
        const rows: Array<{ owner: string }> = await m.query(`SELECT owner FROM compensation_refreshes WHERE id = ?`, [refreshId]);
        return rows[0]?.owner === owner;
      }, 'immediate'),
    );
  }

  /** A queued refresh whose workflow never started: gone, as if never requested. */
  async removeRefresh(refreshId: string): Promise<void> {
    await this.uow.run(({ transaction }) => transaction((m) => m.query(`DELETE FROM compensation_refreshes WHERE id = ? AND state = 'queued'`, [refreshId]), 'immediate'));
  }

  /** Which of these job keys are stored jobs. */
  async existingJobKeys(jobKeys: string[]): Promise<string[]> {
    return this.uow.run(async ({ manager }) => {
      const found: string[] = [];
      for (const keys of chunk(jobKeys, 500)) {
        const rows: Array<{ job_key: string }> = await manager.query(`SELECT job_key FROM jobs WHERE job_key IN (${keys.map(() => '?').join(', ')})`, keys);
        found.push(...rows.map((r) => r.job_key));
      }
      return found;
    });
  }

  /** Ends a refresh that is still queued or running (the workflow's record of a failure or cancel). */
  async endRefresh(refreshId: string, state: 'cancelled' | 'failed', error: string, now = Date.now()): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`UPDATE compensation_refreshes SET state = ?, error = ?, finished_at = ? WHERE id = ? AND state IN ('queued', 'running')`, [state, error, now, refreshId]), 'immediate'),
    );
  }

  /**
   * What a refresh needs of each job (its texts and its sources' collected statements), in the
   * given order; every job when `jobKeys` is null. Unknown keys are left out.
   */
  async inputsFor(jobKeys: string[] | null): Promise<JobCompensationInputs[]> {
    return this.uow.run(async ({ manager }) => {
      const jobs: Array<{ job_key: string; location: string | null; salary_text: string | null; description_text: string | null; page_compensation_json: string | null }> = [];
      const sources: Array<{ job_key: string; source_id: string; external_id: string; compensation_json: string | null }> = [];
      const chunks = jobKeys === null ? [null] : chunk(jobKeys, 500);
      for (const keys of chunks) {
        const where = keys === null ? '' : `WHERE job_key IN (${keys.map(() => '?').join(', ')})`;
        jobs.push(...(await manager.query(`SELECT job_key, location, salary_text, description_text, page_compensation_json FROM jobs ${where} ORDER BY first_seen_at, job_key`, keys ?? [])));
        sources.push(...(await manager.query(`SELECT job_key, source_id, external_id, compensation_json FROM job_sources ${where} ORDER BY first_seen_at, source_id, external_id`, keys ?? [])));
      }
      const byJob = new Map<string, JobCompensationInputs['sources']>();
      for (const s of sources) {
        const list = byJob.get(s.job_key) ?? [];
        list.push({ sourceId: s.source_id, externalId: s.external_id, statements: s.compensation_json ? (JSON.parse(s.compensation_json) as StoredCompensationStatement[]) : null });
        byJob.set(s.job_key, list);
      }
      const found = new Map(jobs.map((j) => [j.job_key, {
          jobKey: j.job_key,
          location: j.location,
          salaryText: j.salary_text,
          descriptionText: j.description_text,
          sources: byJob.get(j.job_key) ?? [],
          pageStatements: j.page_compensation_json ? (JSON.parse(j.page_compensation_json) as StoredCompensationStatement[]) : null,
        }]));
      const order = jobKeys ?? jobs.map((j) => j.job_key);
      return order.filter((k) => found.has(k)).map((k) => found.get(k) as JobCompensationInputs);
    });
  }

  /** Counts and, when `state` is given, the end of the run; only while the refresh is still running. */
  async updateRefresh(refreshId: string, counts: RefreshCounts, end?: { state: Extract<RefreshState, 'completed' | 'cancelled' | 'failed'>; error?: string }, now = Date.now()): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction(
        (m) =>
          m.query(
            `UPDATE compensation_refreshes SET jobs = ?, admitted = ?, completed = ?, cached = ?, failed = ?, published = ?,
               state = COALESCE(?, state), error = COALESCE(?, error), finished_at = CASE WHEN ? IS NULL THEN finished_at ELSE ? END
             WHERE id = ? AND state = 'running'`,
            [counts.jobs, counts.admitted, counts.completed, counts.cached, counts.failed, counts.published, end?.state ?? null, end?.error ?? null, end?.state ?? null, now, refreshId],
          ),
        'immediate',
      ),
    );
  }

  async getRefresh(refreshId: string): Promise<RefreshView | null> {
    const rows: Array<Record<string, unknown>> = await this.uow.run(({ manager }) => manager.query(`SELECT * FROM compensation_refreshes WHERE id = ?`, [refreshId]));
    const r = rows[0];
    if (!r) return null;
    const iso = (v: unknown) => (typeof v === 'number' ? new Date(v).toISOString() : null);
    return {
      refreshId: r['id'] as string,
      state: r['state'] as RefreshState,
      slots: r['slots'] as number,
      jobs: r['jobs'] as number,
      admitted: r['admitted'] as number,
      completed: r['completed'] as number,
      cached: r['cached'] as number,
      failed: r['failed'] as number,
      published: r['published'] as number,
      error: (r['error'] as string | null) ?? null,
      createdAt: iso(r['created_at']) as string,
      finishedAt: iso(r['finished_at']),
    };
  }

  /**
   * Leases each job to `owner` for `leaseMs` unless another owner holds a live lease on it; returns
   * the jobs now leased to `owner`, in input order. An expired lease is anyone's.
   */
  async acquireLeases(refreshId: string, owner: string, jobKeys: string[], leaseMs: number, now = Date.now()): Promise<string[]> {
    if (jobKeys.length === 0) return [];
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        for (const key of jobKeys) {
          await m.query(
            `INSERT INTO compensation_leases (job_key, refresh_id, owner, expires_at) VALUES (?, ?, ?, ?)
             ON CONFLICT (job_key) DO UPDATE SET refresh_id = excluded.refresh_id, owner = excluded.owner, expires_at = excluded.expires_at
             WHERE compensation_leases.expires_at <= ? OR compensation_leases.owner = excluded.owner`,
            [key, refreshId, owner, now + leaseMs, now],
          );
        }
        return ownedAmong(m, owner, jobKeys, now);
      }, 'immediate'),
    );
  }

  /** Extends the owner's live leases; expired or taken-over ones stay lost. Returns the jobs still held. */
  async renewLeases(owner: string, jobKeys: string[], leaseMs: number, now = Date.now()): Promise<string[]> {
    if (jobKeys.length === 0) return [];
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        for (const keys of chunk(jobKeys, 500)) {
          await m.query(`UPDATE compensation_leases SET expires_at = ? WHERE owner = ? AND expires_at > ? AND job_key IN (${keys.map(() => '?').join(', ')})`, [now + leaseMs, owner, now, ...keys]);
        }
        return ownedAmong(m, owner, jobKeys, now);
      }, 'immediate'),
    );
  }

  /** Gives up every lease `owner` still holds (expired or not), so another refresh may take the jobs at once. */
  async releaseLeases(owner: string): Promise<number> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(`DELETE FROM compensation_leases WHERE owner = ?`, [owner]);
        return ((await m.query(`SELECT changes() AS n`)) as Array<{ n: number }>)[0].n;
      }, 'immediate'),
    );
  }

  /**
   * Publishes a job's compensation if, in the same transaction, `owner` still holds a live lease on
   * it. false: the lease expired or another owner took it, and nothing was written.
   */
  async publish(owner: string, refreshId: string, jobKey: string, summary: CompensationSummary | null, rows: PublishedRow[], now = Date.now()): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const held = await ownedAmong(m, owner, [jobKey], now);
        if (held.length === 0) return false;
        await m.query(
          `INSERT INTO job_compensation (job_key, refresh_id, kind, currency, interval, min, max, min_yearly, max_yearly, confidence, method, summary_json, rows_json, published_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
           ON CONFLICT (job_key) DO UPDATE SET refresh_id = excluded.refresh_id, kind = excluded.kind, currency = excluded.currency, interval = excluded.interval,
             min = excluded.min, max = excluded.max, min_yearly = excluded.min_yearly, max_yearly = excluded.max_yearly, confidence = excluded.confidence,
             method = excluded.method, summary_json = excluded.summary_json, rows_json = excluded.rows_json, published_at = excluded.published_at`,
          [
            jobKey,
            refreshId,
            summary?.kind ?? null,
            summary?.currency ?? null,
            summary?.interval ?? null,
            summary?.min ?? null,
            summary?.max ?? null,
            summary?.minYearly ?? null,
            summary?.maxYearly ?? null,
            summary?.confidence ?? null,
            summary?.method ?? null,
            summary ? JSON.stringify(summary) : null,
            JSON.stringify(rows),
            now,
          ],
        );
        return true;
      }, 'immediate'),
    );
  }

  /** A job's published compensation: its summary (null when no row gave a figure) and its rows. */
  async publishedFor(jobKey: string): Promise<{ refreshId: string; summary: CompensationSummary | null; rows: PublishedRow[] } | null> {
    const rows: Array<{ refresh_id: string; summary_json: string | null; rows_json: string }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT refresh_id, summary_json, rows_json FROM job_compensation WHERE job_key = ?`, [jobKey]),
    );
    const r = rows[0];
    return r ? { refreshId: r.refresh_id, summary: r.summary_json ? (JSON.parse(r.summary_json) as CompensationSummary) : null, rows: JSON.parse(r.rows_json) as PublishedRow[] } : null;
  }
}

async function ownedAmong(m: EntityManager, owner: string, jobKeys: string[], now: number): Promise<string[]> {
  const set = new Set<string>();
  for (const keys of chunk(jobKeys, 500)) {
    const held: Array<{ job_key: string }> = await m.query(`SELECT job_key FROM compensation_leases WHERE owner = ? AND expires_at > ? AND job_key IN (${keys.map(() => '?').join(', ')})`, [owner, now, ...keys]);
    for (const h of held) set.add(h.job_key);
  }
  return jobKeys.filter((k) => set.has(k));
}

/** Bound lists for `IN (…)`: SQLite caps the number of bound parameters per statement. */
function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
