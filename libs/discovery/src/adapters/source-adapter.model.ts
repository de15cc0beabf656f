import type { HttpClient } from '@jobctrl/shared/http';
import type { PostingFields } from '@jobctrl/shared/jobs';

/**
 * The contract between discovery sources and the rest of discovery: an adapter turns one configured
 * source (a board token, a site, a file, a list of search units) into normalized postings.
 */

export const SOURCE_KINDS = [
  'greenhouse',
  'lever',
  'ashby',
  'smartrecruiters',
  'workable',
  'remotive',
  'remoteok',
  'arbeitnow',
  'file',
  'jobstreaming',
] as const;

export type SourceKind = (typeof SOURCE_KINDS)[number];

// HTTP as the adapters need it: the shared host policy's client (politeness, robots.txt, retries,
// timeouts), so every adapter request obeys that policy. One definition, in ../http.
export type { HttpClient } from '@jobctrl/shared/http';

/** One posting as a source published it (the job store's posting fields), from a source of this kind. */
export interface DiscoveredPosting extends PostingFields {
  sourceKind: SourceKind;
}

export interface DiscoverContext {
  http: HttpClient;
  /** Checked between pages (and between detail requests): an abort stops before the next request. */
  signal?: AbortSignal;
  /** Page size to ask paginated APIs for (Lever, SmartRecruiters). Default 100, their maximum. */
  pageSize?: number;
  /**
   * Detail requests of one source in flight at once, where the board needs one per posting
   * (SmartRecruiters): the run's snapshot of pipeline_internal_concurrency. Default 1.
   */
  internalConcurrency?: number;
}

export interface SourceAdapter<C> {
  readonly kind: SourceKind;
  /** Checks raw config (from the settings document) and returns it typed with defaults filled in. */
  validateConfig(raw: unknown): C;
  discover(config: C, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting>;
}

export interface SourceConfigIssue {
  /** Dotted path of the offending field, e.g. "board_token" or "units[2].board". */
  field: string;
  value: unknown;
  /** What the value must satisfy, e.g. "must be an http(s) URL". */
  rule: string;
}

/** Invalid source config; lists every problem at once so the user can fix them in one go. */
export class SourceConfigError extends Error {
  readonly code = 'source_config_invalid';
  /** The same config fails the same way until the user edits it. */
  readonly retryable = false;
  readonly issues: SourceConfigIssue[];

  constructor(kind: string, issues: SourceConfigIssue[]) {
    super(`invalid ${kind} source config: ${issues.map(formatIssue).join('; ')}`);
    this.name = 'SourceConfigError';
    this.issues = issues;
  }
}

function formatIssue(issue: SourceConfigIssue): string {
  let shown: string;
  try {
    shown = issue.value === undefined ? 'undefined' : JSON.stringify(issue.value);
  } catch {
    shown = String(issue.value);
  }
  if (shown.length > 80) shown = `${shown.slice(0, 77)}...`;
  return `${issue.field} ${issue.rule} (got ${shown})`;
}

// A source answered with something that is not the document its API promises: the host policy's
// error class, so `instanceof` and `retryable` agree wherever the malformed body was detected.
export { MalformedResponseError } from '@jobctrl/shared/http';
