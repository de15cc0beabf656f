import type { HttpClient } from '@jobctrl/shared/http';

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

/** One posting as a source published it, mapped onto common fields; nothing is invented. */
export interface DiscoveredPosting {
  sourceKind: SourceKind;
  /** The source's own id (JobStreaming prefixes the board: "remotive:123"). */
  externalId: string;
  title: string;
  /** The source's company name; sources that publish none (Lever, Ashby) give their board token. */
  company: string;
  location: string | null;
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
}

export interface DiscoverContext {
  http: HttpClient;
  /** Checked between pages (and between detail requests): an abort stops before the next request. */
  signal?: AbortSignal;
  /** Page size to ask paginated APIs for (Lever, SmartRecruiters). Default 100, their maximum. */
  pageSize?: number;
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
