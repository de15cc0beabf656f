import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { AcquisitionBudget, type AcquireResult, type AcquisitionBudgetState, type AcquisitionKind, type SweepAdmission } from './acquisition.budget';
import { jobAvailabilityOf, type JobAvailability, type JobAvailabilityRow } from '@jobctrl/shared/jobs';
import type { AvailabilityState, AvailabilityVerdict, PostingApiRef, PostingTarget } from './availability.model';

/** What a check read when it claimed its job; its verdict is accepted only while all three still hold. */
export interface PostingSnapshot {
  /** The job's canonical posting URL (canonical_url, else url). */
  url: string;
  stageVersion: number;
  /** job_availability.version (0 before any accepted verdict). */
  availabilityVersion: number;
}

export interface PostingClaim {
  jobKey: string;
  owner: string;
  kind: AcquisitionKind;
  snapshot: PostingSnapshot;
  expiresAt: number;
}

/** Why a sweep stopped claiming. */
export type SweepStop = 'sweep_job_limit' | 'sweep_share_exhausted' | 'hourly_limit_exhausted' | 'unknown_sweep' | 'no_due_jobs' | 'sweep_id_required';

/** A job's recorded availability as the API shows it (the job store's shape: the job list reads it too). */
export type AvailabilityRecord = JobAvailability;

export type RecordOutcome =
  | { accepted: true; state: AvailabilityState }
  /** Nothing was written: the claim lost its lease, or the job changed under the check (spec: "rejects the stale result, preserves the newer state"). */
  | { accepted: false; reason: 'lease_lost' | 'superseded' | 'url_changed' | 'content_changed' | 'job_gone' };

export interface SweepSelection {
  /** tailor_score_threshold: scored jobs at or above it are "saved". */
  scoreThreshold: number;
  /** availability_recheck_hours in ms: a job checked more recently than this is not due. */
  recheckMs: number;
}

/** Consecutive uncertain verdicts multiply the recheck interval by 2^(streak-1), at most this. */
export const MAX_BACKOFF_FACTOR_EXPONENT = 4;

/**
 * Which board API can answer for one posting of a source of `kind` with this stored config (its
 * base URL and board token), or null. Discovery's adapters own those rules (board keys, public
 * hosts, config validation); posting checks are a domain of their own and may not import
 * discovery, so the worker app, which composes both, passes discovery's postingApiOf in here.
 */
export type ResolvePostingApi = (kind: string, config: unknown) => { baseUrl: string; board: string } | null;

const POSTING_URL = `COALESCE(j.canonical_url, j.url)`;

/**
 * The only SQL of saved posting checks: per-job leases, the workspace budget, verdict recording
 * with its fences, and the sweep's selection. Every write is one immediate (writer-reserved)
 * transaction that does no network work and no waiting: checks claim, leave SQLite, fetch, and
 * come back to record.
 */
export class PostingCheckRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /** The workspace budget as of `now` (read-only: for the API and for tests). */
  async budget(now = Date.now()): Promise<{ budget: AcquisitionBudget; state: AcquisitionBudgetState }> {
    const budget = await this.uow.run(({ manager }) => loadBudget(manager, now));
    return { budget, state: budget.toJSON() };
  }

  /** Admits a sweep (at most one a minute, and only while the sweep share has room). */
  admitSweep(now = Date.now()): Promise<SweepAdmission> {
    return this.writeBudget(now, (budget) => budget.admitSweep());
  }

  /** Ends a sweep: its id stops being accepted (charges stay in the window). */
  finishSweep(sweepId: string, now = Date.now()): Promise<boolean> {
    return this.writeBudget(now, (budget) => budget.finishSweep(sweepId));
  }

  /** Charges one foreground acquisition (the API does, before it starts the check). */
  chargeForeground(now = Date.now()): Promise<AcquireResult> {
    return this.writeBudget(now, (budget) => budget.tryAcquire('foreground'));
  }

  /**
   * The sweep's claim of its next job, in one writer transaction: read the sweep's capacity, pick
   * the most overdue saved job nobody holds, charge one acquisition and lease the job. Capacity is
   * read before the job is picked, so a sweep whose share is spent stops without touching a job.
   */
  async claimNextForSweep(sweepId: string, owner: string, selection: SweepSelection, leaseMs: number, now = Date.now()): Promise<PostingClaim | { stop: SweepStop }> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const budget = await loadBudget(m, now);
        const remaining = budget.remaining(sweepId);
        if (remaining.sweepJobs === undefined) return { stop: 'unknown_sweep' as const };
        if (remaining.sweepJobs <= 0) return { stop: 'sweep_job_limit' as const };
        if (remaining.sweep <= 0) return { stop: remaining.foreground <= 0 ? ('hourly_limit_exhausted' as const) : ('sweep_share_exhausted' as const) };
        const due = await nextDueJob(m, selection, now);
        if (!due) return { stop: 'no_due_jobs' as const };
        const charged = budget.tryAcquire('sweep', sweepId);
        if (!charged.acquired) return { stop: charged.reason };
        await saveBudget(m, budget, now);
        return insertLease(m, due, owner, 'sweep', leaseMs, now);
      }, 'immediate'),
    );
  }

  /** A foreground claim of one job: null when another check holds a live lease on it. */
  async claimJob(jobKey: string, owner: string, leaseMs: number, now = Date.now()): Promise<PostingClaim | 'busy' | 'job_gone'> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const rows = await snapshotRows(m, [jobKey]);
        if (!rows[0]) return 'job_gone' as const;
        const held: Array<{ owner: string }> = await m.query(`SELECT owner FROM posting_check_leases WHERE job_key = ? AND expires_at > ?`, [jobKey, now]);
        if (held[0] && held[0].owner !== owner) return 'busy' as const;
        return insertLease(m, rows[0], owner, 'foreground', leaseMs, now);
      }, 'immediate'),
    );
  }

  /** Extends a live lease the owner still holds; false when it expired or was taken over. */
  async renewLease(claim: PostingClaim, leaseMs: number, now = Date.now()): Promise<boolean> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(`UPDATE posting_check_leases SET expires_at = ? WHERE job_key = ? AND owner = ? AND expires_at > ?`, [now + leaseMs, claim.jobKey, claim.owner, now]);
        return changes(m).then((n) => n > 0);
      }, 'immediate'),
    );
  }

  /**
   * A local refusal (cancellation, the work budget, our own limits): ownership goes back at once,
   * and nothing is recorded about the employer — no evidence, no backoff.
   */
  async release(claim: Pick<PostingClaim, 'jobKey' | 'owner'>): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction((m) => m.query(`DELETE FROM posting_check_leases WHERE job_key = ? AND owner = ?`, [claim.jobKey, claim.owner]), 'immediate'),
    );
  }

  /**
   * Records a verdict if, under the writer reservation, the claim still holds a live lease and the
   * job still matches the claim's snapshot: the same canonical URL (a check of the old URL says
   * nothing about the new one), the same stage version (content written since), and the same
   * availability version (no other check's verdict landed since: supersession). Otherwise nothing
   * is written, the newer state stands, and the caller's lease is released.
   */
  async record(claim: PostingClaim, verdict: AvailabilityVerdict, now = Date.now()): Promise<RecordOutcome> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m): Promise<RecordOutcome> => {
        const lease: Array<{ owner: string; expires_at: number }> = await m.query(`SELECT owner, expires_at FROM posting_check_leases WHERE job_key = ?`, [claim.jobKey]);
        const current = (await snapshotRows(m, [claim.jobKey]))[0];
        const outcome = fence(claim, lease[0], current, now);
        if (outcome) {
          await m.query(`DELETE FROM posting_check_leases WHERE job_key = ? AND owner = ?`, [claim.jobKey, claim.owner]);
          return outcome;
        }
        const uncertain = verdict.state === 'unknown' || verdict.state === 'blocked';
        await m.query(
          `INSERT INTO job_availability (job_key, state, reason, method, evidence_json, checked_at, checked_url, uncertain_streak, version)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1)
           ON CONFLICT (job_key) DO UPDATE SET state = excluded.state, reason = excluded.reason, method = excluded.method,
             evidence_json = excluded.evidence_json, checked_at = excluded.checked_at, checked_url = excluded.checked_url,
             uncertain_streak = CASE WHEN ? THEN job_availability.uncertain_streak + 1 ELSE 0 END,
             version = job_availability.version + 1`,
          [claim.jobKey, verdict.state, verdict.reason, verdict.method, JSON.stringify(verdict.evidence), now, claim.snapshot.url, uncertain ? 1 : 0, uncertain ? 1 : 0],
        );
        await m.query(`DELETE FROM posting_check_leases WHERE job_key = ?`, [claim.jobKey]);
        return { accepted: true, state: verdict.state };
      }, 'immediate'),
    );
  }

  /** Where a claimed job's posting lives: its page, and the board API that can answer for it (the first source that has one). */
  async targetFor(claim: PostingClaim, resolveApi: ResolvePostingApi): Promise<PostingTarget> {
    const sources: Array<{ source_kind: string; external_id: string; config: string | null }> = await this.uow.run(({ manager }) =>
      manager.query(
        `SELECT js.source_kind, js.external_id, s.config FROM job_sources js LEFT JOIN sources s ON s.id = js.source_id
         WHERE js.job_key = ? ORDER BY js.first_seen_at`,
        [claim.jobKey],
      ),
    );
    let api: PostingApiRef | null = null;
    for (const s of sources) {
      api = apiRef(s.source_kind, s.external_id, s.config, resolveApi);
      if (api) break;
    }
    return { jobKey: claim.jobKey, url: claim.snapshot.url, api };
  }

  /** A job's recorded availability, or null before any accepted check. */
  async availabilityOf(jobKey: string): Promise<(AvailabilityRecord & { version: number; uncertainStreak: number }) | null> {
    const rows: AvailabilityRow[] = await this.uow.run(({ manager }) => manager.query(`SELECT * FROM job_availability WHERE job_key = ?`, [jobKey]));
    return rows[0] ? { ...jobAvailabilityOf(rows[0]), version: rows[0].version, uncertainStreak: rows[0].uncertain_streak } : null;
  }

  /** The live lease on a job, if any (tests and the API's "already checking" answer). */
  async leaseOf(jobKey: string, now = Date.now()): Promise<{ owner: string; kind: AcquisitionKind; expiresAt: number } | null> {
    const rows: Array<{ owner: string; kind: AcquisitionKind; expires_at: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT owner, kind, expires_at FROM posting_check_leases WHERE job_key = ? AND expires_at > ?`, [jobKey, now]),
    );
    return rows[0] ? { owner: rows[0].owner, kind: rows[0].kind, expiresAt: rows[0].expires_at } : null;
  }

  private writeBudget<T>(now: number, change: (budget: AcquisitionBudget) => T): Promise<T> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const budget = await loadBudget(m, now);
        const result = change(budget);
        await saveBudget(m, budget, now);
        return result;
      }, 'immediate'),
    );
  }
}

interface AvailabilityRow extends JobAvailabilityRow {
  uncertain_streak: number;
  version: number;
}

interface SnapshotRow {
  job_key: string;
  posting_url: string;
  stage_version: number;
  availability_version: number;
}

function snapshotRows(m: EntityManager, jobKeys: string[]): Promise<SnapshotRow[]> {
  return m.query(
    `SELECT j.job_key, ${POSTING_URL} AS posting_url, j.stage_version, COALESCE(a.version, 0) AS availability_version
     FROM jobs j LEFT JOIN job_availability a ON a.job_key = j.job_key WHERE j.job_key IN (${jobKeys.map(() => '?').join(', ')})`,
    jobKeys,
  );
}

/**
 * The sweep's next job: saved (prepared, or scored at or above the threshold, and not in the middle
 * of preparation, whose writes would reject the verdict anyway), not leased, never checked or due.
 * Closed postings are not swept again (a foreground check can still reopen one). Uncertain verdicts
 * back off: the recheck interval doubles with each consecutive one, up to 16×.
 */
async function nextDueJob(m: EntityManager, s: SweepSelection, now: number): Promise<SnapshotRow | undefined> {
  const rows: SnapshotRow[] = await m.query(
    `SELECT j.job_key, ${POSTING_URL} AS posting_url, j.stage_version, COALESCE(a.version, 0) AS availability_version
     FROM jobs j
     LEFT JOIN job_availability a ON a.job_key = j.job_key
     LEFT JOIN posting_check_leases l ON l.job_key = j.job_key AND l.expires_at > ?
     WHERE l.job_key IS NULL
       AND (j.stage = 'prepared' OR (j.stage IN ('scored', 'cover_rejected') AND j.score >= ?))
       AND (a.job_key IS NULL OR (a.state <> 'closed'
            AND a.checked_at + ? * (1 << MIN(MAX(a.uncertain_streak - 1, 0), ${MAX_BACKOFF_FACTOR_EXPONENT})) <= ?))
     ORDER BY a.checked_at IS NOT NULL, a.checked_at, j.job_key
     LIMIT 1`,
    [now, s.scoreThreshold, s.recheckMs, now],
  );
  return rows[0];
}

async function insertLease(m: EntityManager, row: SnapshotRow, owner: string, kind: AcquisitionKind, leaseMs: number, now: number): Promise<PostingClaim> {
  await m.query(
    `INSERT INTO posting_check_leases (job_key, owner, kind, acquired_at, expires_at, snapshot_url, snapshot_stage_version, snapshot_availability_version)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (job_key) DO UPDATE SET owner = excluded.owner, kind = excluded.kind, acquired_at = excluded.acquired_at, expires_at = excluded.expires_at,
       snapshot_url = excluded.snapshot_url, snapshot_stage_version = excluded.snapshot_stage_version, snapshot_availability_version = excluded.snapshot_availability_version`,
    [row.job_key, owner, kind, now, now + leaseMs, row.posting_url, row.stage_version, row.availability_version],
  );
  return {
    jobKey: row.job_key,
    owner,
    kind,
    snapshot: { url: row.posting_url, stageVersion: row.stage_version, availabilityVersion: row.availability_version },
    expiresAt: now + leaseMs,
  };
}

/** Why a claim's verdict may not be recorded, or null when it may. */
function fence(claim: PostingClaim, lease: { owner: string; expires_at: number } | undefined, current: SnapshotRow | undefined, now: number): Exclude<RecordOutcome, { accepted: true }> | null {
  if (!current) return { accepted: false, reason: 'job_gone' };
  // An expired lease is lost even if nobody took it yet: crash recovery may be about to.
  if (!lease || lease.owner !== claim.owner || lease.expires_at <= now) return { accepted: false, reason: 'lease_lost' };
  if (current.availability_version !== claim.snapshot.availabilityVersion) return { accepted: false, reason: 'superseded' };
  if (current.posting_url !== claim.snapshot.url) return { accepted: false, reason: 'url_changed' };
  if (current.stage_version !== claim.snapshot.stageVersion) return { accepted: false, reason: 'content_changed' };
  return null;
}

function apiRef(kind: string, externalId: string, rawConfig: string | null, resolveApi: ResolvePostingApi): PostingApiRef | null {
  if (!rawConfig) return null;
  let config: unknown;
  try {
    config = JSON.parse(rawConfig);
  } catch {
    return null; // a source row that is not JSON has no API to ask; the page still can be
  }
  const board = resolveApi(kind, config);
  return board ? { kind, baseUrl: board.baseUrl, board: board.board, externalId } : null;
}

async function loadBudget(m: EntityManager, now: number): Promise<AcquisitionBudget> {
  const rows: Array<{ state_json: string }> = await m.query(`SELECT state_json FROM posting_check_budget WHERE id = 1`);
  const clock = { now: () => now };
  return rows[0] ? AcquisitionBudget.fromJSON(JSON.parse(rows[0].state_json), clock) : new AcquisitionBudget(clock);
}

async function saveBudget(m: EntityManager, budget: AcquisitionBudget, now: number): Promise<void> {
  await m.query(
    `INSERT INTO posting_check_budget (id, state_json, updated_at) VALUES (1, ?, ?)
     ON CONFLICT (id) DO UPDATE SET state_json = excluded.state_json, updated_at = excluded.updated_at`,
    [JSON.stringify(budget.toJSON()), now],
  );
}

async function changes(m: EntityManager): Promise<number> {
  return ((await m.query(`SELECT changes() AS n`)) as Array<{ n: number }>)[0].n;
}
