/** Where a job stands in the pipeline. */
export type JobStage = 'pending_enrichment' | 'pending_score' | 'pending_tailor' | 'scored';

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
