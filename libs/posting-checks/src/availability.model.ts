/**
 * What a posting check says about a saved job, and the ports the check runs through.
 *
 * The states are deliberately conservative: `closed` is only ever claimed on evidence that the
 * employer or board itself said so (a 404/410 from a source that answers for the posting, a redirect
 * to the board's index, closure text in the page's own content, a `validThrough` in the past, a
 * disabled apply control, an API that lists every open posting no longer listing it). Anything less
 * certain is `unknown` with its reason; a page that keeps us out is `blocked`, never `closed`.
 */

export const AVAILABILITY_STATES = ['open', 'closed', 'unknown', 'blocked'] as const;
export type AvailabilityState = (typeof AVAILABILITY_STATES)[number];

/** The rung of the ladder that decided: the board's API, the page over HTTP, or the rendered page. */
export type CheckMethod = 'api' | 'http' | 'browser';

/** One observation, kept whatever the verdict so that the user can see why. */
export interface AvailabilityEvidence {
  /** Stable, machine-readable: e.g. `api_listed`, `api_missing`, `http_status`, `redirect_to_index`,
   * `closed_text`, `valid_through_past`, `apply_control`, `apply_disabled`, `robots`, `captcha`. */
  kind: string;
  /** Human-readable, short, never page content beyond a quoted snippet of ≤ 160 characters. */
  detail: string;
  url: string | null;
  status: number | null;
}

export interface AvailabilityVerdict {
  state: AvailabilityState;
  /** Why the state is not `open`/`closed` (or which evidence closed it); null for a plain `open`. */
  reason: string | null;
  method: CheckMethod;
  evidence: AvailabilityEvidence[];
}

/** One HTTP exchange of a check, redirects followed (each hop through the host policy). */
export interface PostingResponse {
  /** The URL asked for. */
  url: string;
  /** The URL that answered last (after redirects). */
  finalUrl: string;
  /** Final status; 2xx, 3xx without a location, 4xx and 5xx are all returned, not thrown. */
  status: number;
  /** Every redirect followed, in order: the URL that redirected and its status. */
  hops: Array<{ url: string; status: number }>;
  contentType: string | null;
  /** Decoded body text (≤ MAX_RESPONSE_BYTES before decoding). */
  body: string;
}

/** What the ladder needs to know about the job it checks. */
export interface PostingTarget {
  jobKey: string;
  /** The canonical posting page URL. */
  url: string;
  /** Where the board's own API can answer for this posting, when the job came from an ATS API. */
  api: PostingApiRef | null;
}

export interface PostingApiRef {
  /** Source kind: greenhouse | lever | ashby | smartrecruiters | workable. */
  kind: string;
  /** The source's API base URL (config `base_url`, or the provider default). */
  baseUrl: string;
  /** Board token / site / company id / account slug from the source config. */
  board: string;
  /** The posting's id at the provider (job_sources.external_id). */
  externalId: string;
}
