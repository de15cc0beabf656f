/**
 * Hard limits for checking whether a saved posting is still open. A check fetches pages and APIs
 * the user does not control, so every resource it can consume is bounded: the limits keep one
 * hostile or broken site from tying up the worker, and keep jobctrl a polite client of the boards
 * it reads. They are constants (not settings) because the acquisition budget and the Temporal
 * activity timeouts are derived from them and must stay consistent.
 */

/** Posting page and ATS/API requests one check may issue (redirect hops excluded). */
export const MAX_POSTING_REQUESTS_PER_CHECK = 12;

/** Sub-resources (scripts, XHR, documents) a browser-rendered check may load. */
export const MAX_BROWSER_RESOURCES_PER_CHECK = 64;

/** Redirects followed per request; more is a loop or a tracking chain, not a posting. */
export const MAX_REDIRECT_HOPS = 4;

/** Timeout of each network or browser operation. */
export const OPERATION_TIMEOUT_MS = 20_000;

/** Largest response body read; postings are far smaller, anything bigger is not a posting page. */
export const MAX_RESPONSE_BYTES = 1_000_000;

/** Total bytes one check may read across all its requests and resources. */
export const MAX_BYTES_PER_CHECK = 12_000_000;

/** How long a claimed job stays leased to one check before another may take it over. */
export const JOB_LEASE_MS = 5 * 60_000;

/** Minimum spacing between request starts to the same host, across all checks. */
export const PER_HOST_START_SPACING_MS = 2_000;

/** Wall-clock work budget of one check activity; it stops claiming work after this. */
export const CHECK_WORK_BUDGET_MS = 20 * 60_000;

/**
 * Temporal start-to-close timeout of the check activity. The work budget stays well under it so
 * that a check winds down, releases leases and reports before Temporal would kill it mid-write.
 */
export const CHECK_ACTIVITY_TIMEOUT_MS = 30 * 60_000;

/** The same limits as one object, for logging and for passing to activities. */
export const POSTING_CHECK_LIMITS = Object.freeze({
  maxPostingRequestsPerCheck: MAX_POSTING_REQUESTS_PER_CHECK,
  maxBrowserResourcesPerCheck: MAX_BROWSER_RESOURCES_PER_CHECK,
  maxRedirectHops: MAX_REDIRECT_HOPS,
  operationTimeoutMs: OPERATION_TIMEOUT_MS,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  maxBytesPerCheck: MAX_BYTES_PER_CHECK,
  jobLeaseMs: JOB_LEASE_MS,
  perHostStartSpacingMs: PER_HOST_START_SPACING_MS,
  checkWorkBudgetMs: CHECK_WORK_BUDGET_MS,
  checkActivityTimeoutMs: CHECK_ACTIVITY_TIMEOUT_MS,
});

export type PostingCheckLimits = typeof POSTING_CHECK_LIMITS;
