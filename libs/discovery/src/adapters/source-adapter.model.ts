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
  /** file_source_dirs: a file source is read only inside these (none: no file source is read). */
  fileSourceDirs?: readonly string[];
  /** file_source_max_bytes: a larger file source fails its family unread (default: the schema's). */
  fileSourceMaxBytes?: number;
  /**
   * Hears of a feed entry the adapter skipped instead of failing the board (a blank title or
   * company): discovery records each with its reason on the family's result.
   */
  skipped?: (entry: SkippedEntry) => void;
}

/** A feed entry left out, and why. */
export interface SkippedEntry {
  /** Where in the response: "[42]", "jobs[3]". */
  where: string;
  /** The entry's id when it has one. */
  externalId: string | null;
  reason: string;
}

/** How a config field's value is written (the forms the web UI builds from GET /v1/sources/kinds). */
export type SourceConfigFieldType = 'string' | 'integer' | 'boolean' | 'url' | 'enum' | 'string[]' | 'object' | 'object[]';

/**
 * One key of a source kind's config, as its adapter declares it. The declaration is what the
 * adapter's validateConfig reads through (ConfigReader refuses keys it does not declare and takes
 * defaults and enum options from it) and what GET /v1/sources/kinds publishes, so the two cannot
 * drift.
 */
export interface SourceConfigField {
  name: string;
  type: SourceConfigFieldType;
  /** Missing (or null) is refused with "is required". */
  required: boolean;
  description: string;
  /** The value used when the key is absent. */
  default?: string | number | boolean;
  /** enum: the accepted values. */
  options?: string[];
  /** integer: the least value accepted. */
  min?: number;
  /** integer: the greatest value accepted. */
  max?: number;
  /** string[] and object[]: the most items accepted. */
  maxItems?: number;
  /** object and object[]: the keys of the object (of each item). */
  fields?: SourceConfigField[];
}

/** A source kind as GET /v1/sources/kinds shows it: its name, what it reads, its config rules. */
export interface SourceKindInfo {
  kind: SourceKind;
  label: string;
  description: string;
  fields: SourceConfigField[];
}

/** The board API that can answer for one posting by its id (the posting checks' API rung). */
export interface PostingApiBoard {
  /** The API's base URL (config base_url, else the provider's public API). */
  baseUrl: string;
  /** The board token, site, company id or account slug naming the board. */
  board: string;
}

export interface SourceAdapter<C> {
  readonly kind: SourceKind;
  /** What a person picking a kind reads. */
  readonly label: string;
  readonly description: string;
  /** The config keys validateConfig accepts, declared once (see SourceConfigField). */
  readonly fields: readonly SourceConfigField[];
  /** Checks raw config (from the settings document) and returns it typed with defaults filled in. */
  validateConfig(raw: unknown): C;
  discover(config: C, ctx: DiscoverContext): AsyncIterable<DiscoveredPosting>;
  /** Single-company ATS boards: where one posting can be looked up by id. Others have no such API. */
  postingApi?(config: C): PostingApiBoard | null;
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
