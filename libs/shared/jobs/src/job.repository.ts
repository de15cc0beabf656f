import type { EntityManager } from 'typeorm';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { looksLikeBoardToken } from './employer-name.rules';
import { jobAvailabilityOf, type CompensationStatement, type EnrichmentCandidate, type EnrichmentStatus, type JobAvailability, type JobListFilter, type JobRecord, type JobStage, type ObservedPosting, type PrepStatus } from './job.model';
import type { StageFence } from './preparation.repository';

/**
 * How long a claimed enrichment retry is held by whoever took it. Longer than one detail capture can
 * take (host spacing, a cooldown, a page render); if the taker dies, the job is due again after it.
 */
export const ENRICHMENT_CLAIM_LEASE_MS = 15 * 60_000;

type CandidateRow = { job_key: string; url: string; canonical_url: string | null; enrichment_status: EnrichmentStatus; enrichment_attempts: number };

function toCandidate(r: CandidateRow): EnrichmentCandidate {
  return { jobKey: r.job_key, url: r.url, canonicalUrl: r.canonical_url, status: r.enrichment_status, attempts: r.enrichment_attempts };
}

interface JobRow {
  job_key: string;
  idempotency_key: string;
  title: string;
  company: string;
  location: string | null;
  locations_json: string | null;
  company_from_token: number;
  remote: number | null;
  url: string;
  canonical_url: string | null;
  apply_url: string | null;
  description_text: string | null;
  posted_at: string | null;
  salary_text: string | null;
  employment_type: string | null;
  tags: string;
  stage: JobStage;
  enrichment_status: EnrichmentStatus;
  enrichment_method: string | null;
  enrichment_error: string | null;
  enrichment_attempts: number;
  enrichment_next_attempt_at: number | null;
  score: number | null;
  score_detail: string | null;
  score_profile_revision: number | null;
  tailored_resume: string | null;
  cover_letter: string | null;
  cover_review: string | null;
  cover_attempts: number;
  prep_status: PrepStatus;
  prepared_at: number | null;
  first_seen_at: number;
  last_seen_at: number;
  /** From the job's published compensation (LEFT JOIN job_compensation): null when none was published. */
  comp_summary?: string | null;
  comp_rows?: string | null;
  /** From job_availability (LEFT JOIN): null before any accepted posting check. */
  av_state?: JobAvailability['state'] | null;
  av_reason?: string | null;
  av_method?: JobAvailability['method'] | null;
  av_evidence?: string | null;
  av_checked_at?: number | null;
}

/** What the record readers join to the job: its published compensation and its last posting check. */
const RECORD_JOINS = `FROM jobs j LEFT JOIN job_compensation c ON c.job_key = j.job_key LEFT JOIN job_availability a ON a.job_key = j.job_key`;
/** The job columns plus its published compensation and availability, for the record readers. */
const RECORD_SELECT = `SELECT j.*, c.summary_json AS comp_summary, c.rows_json AS comp_rows,
  a.state AS av_state, a.reason AS av_reason, a.method AS av_method, a.evidence_json AS av_evidence, a.checked_at AS av_checked_at ${RECORD_JOINS}`;
/** A job's annualised figure for the salary filter and sort: its top of range, else its floor. */
const YEARLY = 'COALESCE(c.max_yearly, c.min_yearly)';

/**
 * The pipeline's job records, shared by every stage (domain libs cannot import each other, so the
 * store they all advance lives here). Each method is one unit of work; writes reserve the writer.
 */
export class JobRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  /**
   * Stores a family's observations: a new job is inserted (pending enrichment), a known one only has
   * its last-seen time and missing fields updated — re-observing never duplicates. Every observed job
   * joins the run's current-execution membership.
   */
  async recordObservations(runId: string, family: string, postings: ObservedPosting[], now = Date.now()): Promise<{ inserted: number; seen: number }> {
    if (postings.length === 0) return { inserted: 0, seen: 0 };
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        let inserted = 0;
        for (const p of postings) {
          const known = await this.resolveJobKey(m, p);
          const jobKey = known ?? p.jobKey;
          const isNew = known === null;
          if (isNew) {
            inserted += 1;
            await m.query(
              `INSERT INTO jobs (job_key, idempotency_key, content_key, title, company, company_from_token, location, locations_json, remote, url, canonical_url, apply_url,
                 description_html, description_text, posted_at, salary_text, employment_type, tags, stage, first_seen_at, last_seen_at, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'pending_enrichment', ?, ?, ?)`,
              [p.jobKey, p.idempotencyKey, p.contentKey, p.title, p.company, p.companyFromToken ? 1 : 0, p.location, locationsJson(p), boolToInt(p.remote), p.url, p.canonicalUrl, p.applyUrl,
                p.descriptionHtml, p.descriptionText, p.postedAt, p.salaryText, p.employmentType, JSON.stringify(p.tags), now, now, now],
            );
          } else {
            await m.query(
              `UPDATE jobs SET last_seen_at = ?, updated_at = ?,
                 description_text = COALESCE(description_text, ?), description_html = COALESCE(description_html, ?),
                 salary_text = COALESCE(salary_text, ?), apply_url = COALESCE(apply_url, ?), posted_at = COALESCE(posted_at, ?),
                 locations_json = COALESCE(locations_json, ?)
               WHERE job_key = ?`,
              [now, now, p.descriptionText, p.descriptionHtml, p.salaryText, p.applyUrl, p.postedAt, locationsJson(p), jobKey],
            );
            // A job first stored under its board token takes the employer's name once a source gives it
            // (e.g. a company_name added to the source since).
            if (!p.companyFromToken) await adoptEmployerName(m, jobKey, p.company, now);
          }
          // The statements this source posting gives now replace the ones it gave before (an emptied
          // list included: pay no longer published is "no statements", not stale ones); a source that
          // does not collect statements leaves them as they are (null: never collected).
          await m.query(
            `INSERT INTO job_sources (source_id, external_id, job_key, source_kind, url, first_seen_at, last_seen_at, compensation_json) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
             ON CONFLICT (source_id, external_id) DO UPDATE SET last_seen_at = excluded.last_seen_at, url = excluded.url,
               compensation_json = COALESCE(excluded.compensation_json, job_sources.compensation_json)`,
            [p.sourceId, p.externalId, jobKey, p.sourceKind, p.url, now, now, p.compensation ? JSON.stringify(p.compensation) : null],
          );
          await m.query(`INSERT OR IGNORE INTO discovery_run_jobs (run_id, job_key, family, seen_at) VALUES (?, ?, ?, ?)`, [runId, jobKey, family, now]);
        }
        return { inserted, seen: postings.length };
      }, 'immediate'),
    );
  }

  /**
   * The same posting reached through another source is the same job: first by the exact job key
   * (canonical URL), then by the source observation already recorded, then by content key
   * (normalized company + title + location).
   */
  private async resolveJobKey(m: EntityManager, p: ObservedPosting): Promise<string | null> {
    const byKey: Array<{ job_key: string }> = await m.query(`SELECT job_key FROM jobs WHERE job_key = ?`, [p.jobKey]);
    if (byKey.length > 0) return byKey[0].job_key;
    const bySource: Array<{ job_key: string }> = await m.query(`SELECT job_key FROM job_sources WHERE source_id = ? AND external_id = ?`, [p.sourceId, p.externalId]);
    if (bySource.length > 0) return bySource[0].job_key;
    if (!p.contentKey) return null;
    const byContent: Array<{ job_key: string }> = await m.query(`SELECT job_key FROM jobs WHERE content_key = ? ORDER BY first_seen_at LIMIT 1`, [p.contentKey]);
    return byContent[0]?.job_key ?? null;
  }

  /**
   * Jobs of this run whose detail is still to capture: pending ones, and with `includeRecoverable`
   * robots-blocked ones and retryable failures whose next attempt is due. Filtered, excluded and
   * limited in SQL, so a poll reads at most `limit` rows however large the run is. Due retries are
   * claimed (their next attempt pushed out by `leaseMs`) so the retry pass outside the run cannot
   * take the same attempt at the same time; a claim whose holder died simply falls due again.
   *
   * Each kind is read from the jobs' own enrichment index (jobs_enrichment_seen, jobs_enrichment_due)
   * in index order and checked against the run's membership by primary key (CROSS JOIN keeps jobs
   * the outer loop), so a poll stops after `limit` candidates of each kind instead of joining and
   * sorting every member of the run — the live consumer polls until its run ends, and a per-poll cost
   * that grows with the run makes the whole run quadratic. Pending and robots-blocked jobs come in
   * the order first seen (for a job new in this run, the moment this run stored it).
   */
  async selectForEnrichment(runId: string, opts: { includeRecoverable: boolean; exclude: ReadonlySet<string>; limit: number; now?: number; leaseMs?: number }): Promise<EnrichmentCandidate[]> {
    const now = opts.now ?? Date.now();
    const exclude = JSON.stringify([...opts.exclude]);
    const kind = (where: string, order: string, params: unknown[]) => ({
      sql: `SELECT * FROM (SELECT j.job_key, j.url, j.canonical_url, j.enrichment_status, j.enrichment_attempts, r.seen_at
              FROM jobs j CROSS JOIN discovery_run_jobs r ON r.run_id = ? AND r.job_key = j.job_key
              WHERE ${where} AND j.job_key NOT IN (SELECT value FROM json_each(?)) ORDER BY ${order} LIMIT ?)`,
      params: [runId, ...params, exclude, opts.limit],
    });
    const kinds = [kind(`j.enrichment_status = 'pending'`, 'j.first_seen_at, j.job_key', [])];
    if (opts.includeRecoverable) {
      kinds.push(kind(`j.enrichment_status = 'robots_blocked'`, 'j.first_seen_at, j.job_key', []));
      kinds.push(kind(`j.enrichment_status = 'failed_retryable' AND j.enrichment_next_attempt_at <= ?`, 'j.enrichment_next_attempt_at, j.job_key', [now]));
    }
    const rows: CandidateRow[] = await this.uow.run(({ manager }) =>
      manager.query(
        `SELECT job_key, url, canonical_url, enrichment_status, enrichment_attempts FROM (${kinds.map((k) => k.sql).join(' UNION ALL ')}) ORDER BY seen_at, job_key LIMIT ?`,
        [...kinds.flatMap((k) => k.params), opts.limit],
      ),
    );
    const retries = rows.filter((r) => r.enrichment_status === 'failed_retryable').map((r) => r.job_key);
    if (retries.length === 0) return rows.map(toCandidate);
    const claimed = new Set(await this.claimRetries(retries, now, opts.leaseMs ?? ENRICHMENT_CLAIM_LEASE_MS));
    return rows.filter((r) => r.enrichment_status !== 'failed_retryable' || claimed.has(r.job_key)).map(toCandidate);
  }

  /**
   * Retryable enrichment failures of any run (or none) whose next attempt is due, oldest due first,
   * claimed like selectForEnrichment's: the retry pass that runs outside discovery runs.
   */
  async claimDueEnrichmentRetries(opts: { limit: number; now?: number; leaseMs?: number }): Promise<EnrichmentCandidate[]> {
    const now = opts.now ?? Date.now();
    const rows: CandidateRow[] = await this.uow.run(({ manager }) =>
      manager.query(
        `SELECT job_key, url, canonical_url, enrichment_status, enrichment_attempts FROM jobs
         WHERE enrichment_status = 'failed_retryable' AND enrichment_next_attempt_at <= ? AND stage = 'pending_enrichment'
         ORDER BY enrichment_next_attempt_at, job_key LIMIT ?`,
        [now, opts.limit],
      ),
    );
    if (rows.length === 0) return [];
    const claimed = new Set(await this.claimRetries(rows.map((r) => r.job_key), now, opts.leaseMs ?? ENRICHMENT_CLAIM_LEASE_MS));
    return rows.filter((r) => claimed.has(r.job_key)).map(toCandidate);
  }

  /** Of these keys, the retries still due now are pushed out by the lease; returns the ones taken. */
  private claimRetries(jobKeys: string[], now: number, leaseMs: number): Promise<string[]> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        const keys = JSON.stringify(jobKeys);
        const due: Array<{ job_key: string }> = await m.query(
          `SELECT job_key FROM jobs WHERE job_key IN (SELECT value FROM json_each(?)) AND enrichment_status = 'failed_retryable' AND enrichment_next_attempt_at <= ?`,
          [keys, now],
        );
        const taken = due.map((r) => r.job_key);
        if (taken.length > 0) {
          await m.query(`UPDATE jobs SET enrichment_next_attempt_at = ? WHERE job_key IN (SELECT value FROM json_each(?))`, [now + leaseMs, JSON.stringify(taken)]);
        }
        return taken;
      }, 'immediate'),
    );
  }

  /**
   * Records a detail capture. Enriched, robots-blocked, permanently failed and source-only jobs move
   * on to scoring (with whatever description the source gave); a retryable failure stays pending
   * enrichment until `nextAttemptAt` (now when not given). An `employer` the page named replaces a
   * board token in the same write (see adoptEmployerName), so scoring and letters see it. Returns the
   * job's idempotency key when it just became ready to score.
   */
  async recordEnrichment(
    jobKey: string,
    outcome: {
      status: EnrichmentStatus;
      method?: string;
      error?: string;
      descriptionText?: string | null;
      descriptionHtml?: string | null;
      nextAttemptAt?: number;
      employer?: string | null;
      /** The pay statements the posting page states (its JSON-LD baseSalary, raw); null/absent: the page said nothing. */
      pageCompensation?: CompensationStatement[] | null;
    },
    now = Date.now(),
  ): Promise<string | null> {
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        if (outcome.employer) await adoptEmployerName(m, jobKey, outcome.employer, now);
        const moveOn = outcome.status !== 'failed_retryable';
        await m.query(
          `UPDATE jobs SET enrichment_status = ?, enrichment_method = COALESCE(?, enrichment_method), enrichment_error = ?,
             enrichment_attempts = enrichment_attempts + 1, enrichment_next_attempt_at = ?,
             description_text = COALESCE(?, description_text), description_html = COALESCE(?, description_html),
             page_compensation_json = COALESCE(?, page_compensation_json),
             stage = CASE WHEN ? AND stage = 'pending_enrichment' THEN 'pending_score' ELSE stage END, updated_at = ?
           WHERE job_key = ?`,
          [outcome.status, outcome.method ?? null, outcome.error ?? null, moveOn ? null : (outcome.nextAttemptAt ?? now),
            outcome.descriptionText ?? null, outcome.descriptionHtml ?? null, outcome.pageCompensation ? JSON.stringify(outcome.pageCompensation) : null, moveOn ? 1 : 0, now, jobKey],
        );
        const rows: Array<{ idempotency_key: string; stage: string }> = await m.query(`SELECT idempotency_key, stage FROM jobs WHERE job_key = ?`, [jobKey]);
        return rows[0]?.stage === 'pending_score' ? rows[0].idempotency_key : null;
      }, 'immediate'),
    );
  }

  /** Jobs of a run (or, for the straggler sweep, anywhere) that wait for a preparation workflow. */
  async selectPendingPreparation(opts: { runId?: string; includePendingTailor: boolean }): Promise<Array<{ jobKey: string; idempotencyKey: string; stage: JobStage }>> {
    const stages = opts.includePendingTailor ? ['pending_score', 'pending_tailor'] : ['pending_score'];
    const marks = stages.map(() => '?').join(', ');
    const rows: Array<{ job_key: string; idempotency_key: string; stage: JobStage }> = await this.uow.run(({ manager }) =>
      opts.runId
        ? // From the waiting jobs (jobs_stage) to the run's membership by key, not from every member of
          // the run: a fan-out near the end of a large run finds the few still waiting without reading the rest.
          manager.query(
            `SELECT j.job_key, j.idempotency_key, j.stage FROM jobs j CROSS JOIN discovery_run_jobs r ON r.run_id = ? AND r.job_key = j.job_key WHERE j.stage IN (${marks}) ORDER BY j.job_key`,
            [opts.runId, ...stages],
          )
        : manager.query(`SELECT job_key, idempotency_key, stage FROM jobs WHERE stage IN (${marks}) ORDER BY job_key`, stages),
    );
    return rows.map((r) => ({ jobKey: r.job_key, idempotencyKey: r.idempotency_key, stage: r.stage }));
  }


  async get(jobKey: string): Promise<JobRecord | null> {
    return (await this.uow.run(({ manager }) => readFencedJob(manager, jobKey)))?.job ?? null;
  }

  /**
   * The job and the fence a preparation attempt writes against (see PreparationRepository.fenceOf),
   * in one unit of work instead of two: both come from the same row of one statement, so no write can
   * slip between the fence and the data the attempt decides on (two reads needed the fence first for
   * that). A stage activity pays one connection open for them instead of two.
   */
  async getFenced(jobKey: string): Promise<FencedJob | null> {
    return this.uow.run(({ manager }) => readFencedJob(manager, jobKey));
  }

  async list(filter: JobListFilter): Promise<{ items: JobRecord[]; total: number }> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.stage) {
      where.push('j.stage = ?');
      params.push(filter.stage);
    }
    if (filter.company) {
      where.push('j.company = ? COLLATE NOCASE');
      params.push(filter.company);
    }
    if (filter.q) {
      where.push('(j.title LIKE ? OR j.company LIKE ?)');
      params.push(`%${filter.q}%`, `%${filter.q}%`);
    }
    if (filter.minScore !== undefined) {
      where.push('j.score >= ?');
      params.push(filter.minScore);
    }
    if (filter.runId) {
      where.push('j.job_key IN (SELECT job_key FROM discovery_run_jobs WHERE run_id = ?)');
      params.push(filter.runId);
    }
    if (filter.minSalary !== undefined || filter.currency) {
      // Annualised figures in the asked currency (figures in other currencies are not comparable);
      // jobs without a figure only when the caller asks for them.
      const known = [`c.currency = ?`, ...(filter.minSalary !== undefined ? [`${YEARLY} >= ?`] : [])].join(' AND ');
      const unknown = filter.includeUnknownSalary ? ` OR c.job_key IS NULL OR ${YEARLY} IS NULL` : '';
      where.push(`((${known})${unknown})`);
      params.push(filter.currency ?? 'USD', ...(filter.minSalary !== undefined ? [filter.minSalary] : []));
    }
    if (filter.availability) {
      where.push(filter.availability === 'unchecked' ? 'a.job_key IS NULL' : 'a.state = ?');
      if (filter.availability !== 'unchecked') params.push(filter.availability);
    }
    const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const order =
      filter.sort === 'salary' ? `${YEARLY} IS NULL, ${YEARLY} DESC, j.first_seen_at DESC, j.job_key` : filter.sort === 'score' ? 'j.score IS NULL, j.score DESC, j.first_seen_at DESC, j.job_key' : 'j.first_seen_at DESC, j.job_key';
    return this.uow.run(async ({ manager }) => {
      const total = (await manager.query(`SELECT COUNT(*) AS n ${RECORD_JOINS} ${clause}`, params))[0].n as number;
      const rows: JobRow[] = await manager.query(`${RECORD_SELECT} ${clause} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, filter.limit, filter.offset]);
      // One query for the page's sources, not one per job.
      const sources = await sourcesOf(manager, rows.map((r) => r.job_key));
      return { items: rows.map((row) => toRecord(row, sources.get(row.job_key) ?? [])), total };
    });
  }

  /**
   * Names a job after its employer while all it carries is a board token (see employer-name.rules.ts),
   * e.g. from the JSON-LD hiringOrganization of its posting page. A real name is never replaced, and
   * identity stays: the job, idempotency and content keys are the ones it was first stored under.
   * Returns whether the name changed.
   */
  async adoptEmployerName(jobKey: string, employer: string, now = Date.now()): Promise<boolean> {
    // A token or an empty name never replaces anything: no writer transaction for it.
    if (!employerName(employer)) return false;
    return this.uow.run(({ transaction }) => transaction((m) => adoptEmployerName(m, jobKey, employer, now), 'immediate'));
  }
}

/** The name a job may adopt: trimmed, and neither empty nor itself a board token. */
function employerName(employer: string): string | null {
  const name = employer.trim();
  return name && !looksLikeBoardToken(name) ? name : null;
}

async function adoptEmployerName(m: EntityManager, jobKey: string, employer: string, now: number): Promise<boolean> {
  const name = employerName(employer);
  if (!name) return false;
  const rows: Array<{ company: string; company_from_token: number }> = await m.query(`SELECT company, company_from_token FROM jobs WHERE job_key = ?`, [jobKey]);
  // A token the source marked as one is replaced whatever it looks like ("GoToGroup"); an unmarked
  // name only when it reads as a token (jobs stored before the mark, other sources).
  if (!rows[0] || (!rows[0].company_from_token && !looksLikeBoardToken(rows[0].company))) return false;
  await m.query(`UPDATE jobs SET company = ?, company_from_token = 0, updated_at = ? WHERE job_key = ?`, [name, now, jobKey]);
  return true;
}

/** The posting's locations when it lists more than its primary one (null: `location` says it all). */
function locationsJson(p: ObservedPosting): string | null {
  const all = p.locations ?? [];
  return all.length > 1 || (all.length === 1 && all[0] !== p.location) ? JSON.stringify(all) : null;
}

type SourceRow = { job_key: string; source_id: string; source_kind: string; external_id: string; url: string };

async function sourcesOf(m: EntityManager, jobKeys: string[]): Promise<Map<string, SourceRow[]>> {
  const byJob = new Map<string, SourceRow[]>();
  if (jobKeys.length === 0) return byJob;
  const rows: SourceRow[] = await m.query(
    `SELECT job_key, source_id, source_kind, external_id, url FROM job_sources WHERE job_key IN (${jobKeys.map(() => '?').join(', ')}) ORDER BY first_seen_at`,
    jobKeys,
  );
  for (const r of rows) byJob.set(r.job_key, [...(byJob.get(r.job_key) ?? []), r]);
  return byJob;
}

function boolToInt(v: boolean | null): number | null {
  return v === null ? null : v ? 1 : 0;
}

function toRecord(r: JobRow, sources: SourceRow[]): JobRecord {
  return {
    jobKey: r.job_key,
    idempotencyKey: r.idempotency_key,
    title: r.title,
    company: r.company,
    location: r.location,
    locations: r.locations_json ? (JSON.parse(r.locations_json) as string[]) : r.location ? [r.location] : [],
    remote: r.remote === null ? null : r.remote === 1,
    url: r.url,
    canonicalUrl: r.canonical_url,
    applyUrl: r.apply_url,
    descriptionText: r.description_text,
    postedAt: r.posted_at,
    salaryText: r.salary_text,
    employmentType: r.employment_type,
    tags: JSON.parse(r.tags) as string[],
    stage: r.stage,
    enrichmentStatus: r.enrichment_status,
    enrichmentMethod: r.enrichment_method,
    enrichmentError: r.enrichment_error,
    enrichmentAttempts: r.enrichment_attempts,
    enrichmentNextAttemptAt: r.enrichment_next_attempt_at === null ? null : new Date(r.enrichment_next_attempt_at).toISOString(),
    score: r.score,
    scoreDetail: r.score_detail ? JSON.parse(r.score_detail) : null,
    scoreProfileRevision: r.score_profile_revision,
    tailoredResume: r.tailored_resume ? JSON.parse(r.tailored_resume) : null,
    coverLetter: r.cover_letter ? JSON.parse(r.cover_letter) : null,
    coverReview: r.cover_review ? JSON.parse(r.cover_review) : null,
    coverAttempts: r.cover_attempts,
    prepStatus: r.prep_status,
    preparedAt: r.prepared_at === null ? null : new Date(r.prepared_at).toISOString(),
    sources: sources.map((s) => ({ sourceId: s.source_id, sourceKind: s.source_kind, externalId: s.external_id, url: s.url })),
    firstSeenAt: new Date(r.first_seen_at).toISOString(),
    lastSeenAt: new Date(r.last_seen_at).toISOString(),
    availability:
      r.av_state && r.av_method && r.av_evidence && r.av_checked_at != null
        ? jobAvailabilityOf({ state: r.av_state, reason: r.av_reason ?? null, method: r.av_method, evidence_json: r.av_evidence, checked_at: r.av_checked_at })
        : null,
    compensation: r.comp_rows ? { summary: r.comp_summary ? (JSON.parse(r.comp_summary) as Record<string, unknown>) : null, rows: JSON.parse(r.comp_rows) as Array<Record<string, unknown>> } : null,
  };
}

/** Thrown by stage activities for a job that no longer exists (non-retryable: a retry cannot bring it back). */
export class JobNotFoundError extends Error {
  readonly code = 'job_not_found';
  readonly nonRetryable = true;
  constructor(readonly jobKey: string) {
    super(`no job ${jobKey}`);
  }
}

export async function requireJob(jobs: JobRepository, jobKey: string): Promise<JobRecord> {
  const job = await jobs.get(jobKey);
  if (!job) throw new JobNotFoundError(jobKey);
  return job;
}

/** A job as a preparation attempt starts from: its record and the fence its next write is checked against. */
export interface FencedJob {
  job: JobRecord;
  fence: StageFence;
}

/** getFenced's read, on a unit the caller holds (the preparation attempt reads it after its own write). */
export async function readFencedJob(manager: EntityManager, jobKey: string): Promise<FencedJob | null> {
  const rows: Array<JobRow & { stage_version: number }> = await manager.query(`${RECORD_SELECT} WHERE j.job_key = ?`, [jobKey]);
  const row = rows[0];
  if (!row) return null;
  const job = toRecord(row, (await sourcesOf(manager, [jobKey])).get(jobKey) ?? []);
  return { job, fence: { stage: row.stage, version: row.stage_version } };
}

/** A stage activity's first read: the job and its attempt's fence (getFenced), or JobNotFoundError. */
export async function requireFencedJob(jobs: JobRepository, jobKey: string): Promise<FencedJob> {
  const read = await jobs.getFenced(jobKey);
  if (!read) throw new JobNotFoundError(jobKey);
  return read;
}
