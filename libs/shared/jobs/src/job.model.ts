/**
 * Where a job stands in the pipeline. After scoring, a job at or above `tailor_score_threshold`
 * goes on to pending_tailor → pending_cover → prepared (or cover_rejected when no letter passed its
 * review pair); a job below the threshold stops at scored.
 */
export const JOB_STAGES = [
  'pending_enrichment',
  'pending_score',
  'pending_tailor',
  'pending_cover',
  'scored',
  'prepared',
  'cover_rejected',
] as const;

export type JobStage = (typeof JOB_STAGES)[number];

/** Stages a preparation workflow still has work in. */
export const PREPARATION_PENDING_STAGES = ['pending_score', 'pending_tailor', 'pending_cover'] as const satisfies readonly JobStage[];

/**
 * Why a job waits in its pending stage with nothing moving it: paused at the daily spend ceiling, or
 * its preparation cancelled with the run that started it (idle recovery leaves such a job alone; a
 * run, a re-prepare or a profile change takes it up again, and its next stage write clears this).
 */
export type PrepStatus = 'spend_ceiling_reached' | 'cancelled' | null;

export const SPEND_CEILING_REACHED_STATUS = 'spend_ceiling_reached' as const;
export const PREPARATION_CANCELLED_STATUS = 'cancelled' as const;

/**
 * How the detail capture went. A retryable failure stays pending enrichment until its next attempt
 * is due; once its bounded attempts are spent the job goes on to scoring with what its source gave,
 * as `source_only` (enrichment_error says why). Robots-blocked rows may be re-admitted once per live consumer.
 */
export type EnrichmentStatus = 'pending' | 'enriched' | 'robots_blocked' | 'failed_retryable' | 'failed' | 'source_only';

/** A job whose detail page is to be captured; `attempts` counts the captures already tried. */
export interface EnrichmentCandidate {
  jobKey: string;
  url: string;
  canonicalUrl: string | null;
  status: EnrichmentStatus;
  attempts: number;
}

/** One posting as a source published it, mapped onto common fields; nothing is invented. */
export interface PostingFields {
  /** The source's own id (JobStreaming prefixes the board: "remotive:123"). */
  externalId: string;
  title: string;
  /** The source's company name; sources that publish none (Lever, Ashby) give their board token. */
  company: string;
  /**
   * true when `company` is only the board's token (the source named no employer): the posting page's
   * JSON-LD employer then replaces it, even when the token reads like a name ("GoToGroup").
   */
  companyFromToken?: boolean;
  /** The primary location (the first of `locations`). */
  location: string | null;
  /**
   * Every location the posting lists, the primary one first (Lever allLocations, Ashby
   * secondaryLocations, Greenhouse offices); absent: the source lists no more than `location`.
   */
  locations?: string[];
  /** true/false only when the source says so (a flag, or "Remote" in the location); null = unknown. */
  remote: boolean | null;
  /** The posting's public page: the canonical URL later stages fetch and deduplicate on. */
  url: string;
  applyUrl: string | null;
  descriptionHtml: string | null;
  /** Readable text: paragraphs separated by blank lines, list items as "- item". */
  descriptionText: string | null;
  /** ISO 8601 (UTC, with milliseconds). */
  postedAt: string | null;
  /** Pay as free text, e.g. "USD 120,000 - 150,000 per year" or the source's own wording. */
  salaryText: string | null;
  /** schema.org vocabulary when recognised (FULL_TIME, PART_TIME, CONTRACTOR, INTERN, TEMPORARY), else as published. */
  employmentType: string | null;
  /** Skills, departments, teams or categories as the source tags them; deduplicated. */
  tags: string[];
  /**
   * Every compensation statement the source gave, each the board's raw value under the field path
   * that names its shape (e.g. `lever.salaryRange`, `greenhouse.metadata.Salary Range`); the
   * compensation lib reads them (adapters do not interpret pay). Stored with this exact source
   * posting. `[]`: the source collects statements and this posting has none (so a posting that
   * stops publishing pay loses its old ones); absent: the source does not collect them.
   */
  compensation?: CompensationStatement[];
}

/** One compensation statement as a source published it (see PostingFields.compensation). */
export interface CompensationStatement {
  fieldPath: string;
  value: unknown;
}

/** One observation of a posting by one source, with its identity already computed. */
export interface ObservedPosting extends PostingFields {
  jobKey: string;
  idempotencyKey: string;
  contentKey: string | null;
  canonicalUrl: string | null;
  sourceId: string;
  sourceKind: string;
}

export interface JobRecord {
  jobKey: string;
  idempotencyKey: string;
  title: string;
  company: string;
  location: string | null;
  /** Every location the posting lists, `location` first ([] when it states none). */
  locations: string[];
  remote: boolean | null;
  url: string;
  canonicalUrl: string | null;
  applyUrl: string | null;
  descriptionText: string | null;
  postedAt: string | null;
  salaryText: string | null;
  employmentType: string | null;
  tags: string[];
  stage: JobStage;
  enrichmentStatus: EnrichmentStatus;
  enrichmentMethod: string | null;
  enrichmentError: string | null;
  /** Detail captures tried so far. */
  enrichmentAttempts: number;
  /** When a retryable enrichment failure is tried again (null: nothing scheduled). */
  enrichmentNextAttemptAt: string | null;
  score: number | null;
  scoreDetail: unknown;
  /** The profile revision the score was computed against (null: not scored yet). */
  scoreProfileRevision: number | null;
  tailoredResume: unknown;
  coverLetter: unknown;
  /** The cover letter's review pair decision (accepted only when both reviews passed). */
  coverReview: unknown;
  coverAttempts: number;
  prepStatus: PrepStatus;
  preparedAt: string | null;
  sources: Array<{ sourceId: string; sourceKind: string; externalId: string; url: string }>;
  firstSeenAt: string;
  lastSeenAt: string;
  /**
   * The job's published compensation as the compensation refresh wrote it (its summary and every row
   * it was chosen from); null until a refresh published one. Its shapes are the compensation lib's.
   */
  compensation: PublishedCompensation | null;
  /** The last accepted posting check (is the posting still open?); null before any. Written by libs/posting-checks. */
  availability: JobAvailability | null;
}

/** A job's recorded availability, as GET /v1/jobs shows it. */
export interface JobAvailability {
  state: 'open' | 'closed' | 'unknown' | 'blocked';
  /** Why the state is what it is when that needs saying (unknown's reason, closed's evidence kind); null for a plain open. */
  reason: string | null;
  checkedAt: string;
  method: 'api' | 'http' | 'browser';
  evidence: Array<{ kind: string; detail: string; url: string | null; status: number | null }>;
}

/** GET /v1/jobs?availability=: a recorded state, or `unchecked` for jobs never checked. */
export const AVAILABILITY_FILTERS = ['open', 'closed', 'unknown', 'blocked', 'unchecked'] as const;
export type AvailabilityFilter = (typeof AVAILABILITY_FILTERS)[number];

/** The stored columns of a job's availability (job_availability), for the readers of both libs. */
export interface JobAvailabilityRow {
  state: JobAvailability['state'];
  reason: string | null;
  method: JobAvailability['method'];
  evidence_json: string;
  checked_at: number;
}

export function jobAvailabilityOf(r: JobAvailabilityRow): JobAvailability {
  return { state: r.state, reason: r.reason, checkedAt: new Date(r.checked_at).toISOString(), method: r.method, evidence: JSON.parse(r.evidence_json) as JobAvailability['evidence'] };
}

export interface PublishedCompensation {
  summary: Record<string, unknown> | null;
  rows: Array<Record<string, unknown>>;
}

export type JobListSort = 'newest' | 'score' | 'salary';
export const JOB_LIST_SORTS: readonly JobListSort[] = ['newest', 'score', 'salary'];

export interface JobListFilter {
  stage?: JobStage;
  company?: string;
  q?: string;
  minScore?: number;
  runId?: string;
  /** Annualised pay at least this (top of range, else floor), in `currency`. */
  minSalary?: number;
  /** ISO 4217; with minSalary, USD unless given. */
  currency?: string;
  /** With a salary filter, also jobs that state no figure. */
  includeUnknownSalary?: boolean;
  /** newest (default): first seen; score: highest first; salary: highest annualised figure first, unknown last. */
  sort?: JobListSort;
  availability?: AvailabilityFilter;
  limit: number;
  offset: number;
}
