/**
 * Where a job stands in the pipeline. After scoring, a job at or above `tailor_score_threshold`
 * goes on to pending_tailor → pending_cover → prepared (or cover_rejected when no letter passed its
 * review pair); a job below the threshold stops at scored.
 */
export type JobStage =
  | 'pending_enrichment'
  | 'pending_score'
  | 'pending_tailor'
  | 'pending_cover'
  | 'scored'
  | 'prepared'
  | 'cover_rejected';

export const JOB_STAGES: readonly JobStage[] = [
  'pending_enrichment',
  'pending_score',
  'pending_tailor',
  'pending_cover',
  'scored',
  'prepared',
  'cover_rejected',
];

/** Stages a preparation workflow still has work in. */
export const PREPARATION_PENDING_STAGES: readonly JobStage[] = ['pending_score', 'pending_tailor', 'pending_cover'];

/** Why a job's preparation is paused (null while it runs or is done). */
export type PrepStatus = 'spend_ceiling_reached' | null;

export const SPEND_CEILING_REACHED_STATUS = 'spend_ceiling_reached' as const;

/** How the detail capture went: robots-blocked and retryable failures may be re-admitted once per live consumer. */
export type EnrichmentStatus = 'pending' | 'enriched' | 'robots_blocked' | 'failed_retryable' | 'failed';

/** One observation of a posting by one source, with its identity already computed. */
export interface ObservedPosting {
  jobKey: string;
  idempotencyKey: string;
  contentKey: string | null;
  canonicalUrl: string | null;
  sourceId: string;
  sourceKind: string;
  externalId: string;
  title: string;
  company: string;
  location: string | null;
  remote: boolean | null;
  url: string;
  applyUrl: string | null;
  descriptionHtml: string | null;
  descriptionText: string | null;
  postedAt: string | null;
  salaryText: string | null;
  employmentType: string | null;
  tags: string[];
}

export interface JobRecord {
  jobKey: string;
  idempotencyKey: string;
  title: string;
  company: string;
  location: string | null;
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
}

export interface JobListFilter {
  stage?: JobStage;
  company?: string;
  q?: string;
  minScore?: number;
  runId?: string;
  limit: number;
  offset: number;
}
