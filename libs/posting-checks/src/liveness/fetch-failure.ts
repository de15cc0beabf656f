import type { AvailabilityState } from '../availability.model';

/**
 * Turns an error thrown by the check's fetcher into what it says about the posting.
 *
 * Read by duck typing on `code`/`limit`/`reason`/`status` so the ladder does not depend on the
 * fetcher's classes: the shared host policy's errors (libs/shared/http/src/http.errors.ts) and the
 * check fetcher's `CheckLimitError` (a `limit` it ran into) are both plain objects here.
 *
 * None of these is closure. robots.txt disallowing the page is `blocked` (the site keeps robots
 * out, and we obey); everything else — a timeout, a refused connection, a redirect loop, a page
 * over the size cap, a per-check limit — is `unknown` with its reason, because it says something
 * about the network or our own limits, not about the posting.
 *
 * Cancellation is not a reading at all: `isCancellation` errors are rethrown by the ladder.
 */

export interface FailureReading {
  state: Extract<AvailabilityState, 'unknown' | 'blocked'>;
  /** Stable reason, e.g. `robots`, `timeout`, `network`, `too_many_redirects`, `request_limit`. */
  reason: string;
  /** Evidence kind: `robots`, `fetch_error` or `check_limit`. */
  kind: string;
  detail: string;
  url: string | null;
  status: number | null;
}

interface ErrorShape {
  name?: unknown;
  code?: unknown;
  limit?: unknown;
  reason?: unknown;
  status?: unknown;
  url?: unknown;
  message?: unknown;
}

/** The caller's signal fired (or the fetcher says the work was aborted): stop, record nothing. */
export function isCancellation(err: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return true;
  const e = (err ?? {}) as ErrorShape;
  return e.name === 'AbortError' || e.code === 'aborted' || e.code === 'ABORT_ERR' || e.name === 'CancelledFailure';
}

export function readFetchFailure(err: unknown, fallbackUrl: string): FailureReading {
  const e = (err !== null && typeof err === 'object' ? err : { message: String(err) }) as ErrorShape;
  const code = typeof e.code === 'string' ? e.code : '';
  const url = typeof e.url === 'string' ? e.url : fallbackUrl;
  const message = typeof e.message === 'string' ? e.message.slice(0, 200) : String(code || 'fetch failed');
  const reading = (state: FailureReading['state'], reason: string, kind = 'fetch_error', status: number | null = null): FailureReading => ({
    state, reason, kind, detail: message, url, status,
  });

  if (typeof e.limit === 'string' && e.limit) {
    return reading('unknown', limitReason(e.limit), 'check_limit');
  }
  switch (code) {
    case 'robots_blocked':
      // robots.txt unreachable (5xx/unfetchable) is disallow-all only for a while (RFC 9309): a
      // temporary condition, not the site's rule about this page.
      return e.reason === 'unreachable' ? reading('unknown', 'robots_unreachable', 'robots') : reading('blocked', 'robots', 'robots');
    case 'too_many_redirects':
      return reading('unknown', 'too_many_redirects');
    case 'response_too_large':
      return reading('unknown', 'response_too_large');
    case 'request_timeout':
    case 'timeout':
      return reading('unknown', 'timeout');
    case 'network_error':
    case 'network':
      return reading('unknown', 'network');
    case 'malformed_response':
      return reading('unknown', 'malformed_response');
    case 'invalid_url':
      return reading('unknown', 'invalid_url');
    case 'http_status': {
      const status = typeof e.status === 'number' ? e.status : null;
      if (status === 429) return reading('blocked', 'rate_limited', 'fetch_error', status);
      if (status === 401 || status === 403) return reading('blocked', 'forbidden', 'fetch_error', status);
      return reading('unknown', status !== null && status >= 500 ? 'server_error' : `http_${status ?? 'error'}`, 'fetch_error', status);
    }
    default:
      return reading('unknown', code ? code.replace(/[^a-z0-9_]/gi, '_').toLowerCase().slice(0, 40) : 'fetch_failed');
  }
}

/** `requests` → `request_limit`, `bytes_per_check` → `bytes_per_check_limit`; already `…_limit` stays. */
function limitReason(limit: string): string {
  const slug = limit.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '').toLowerCase().slice(0, 40) || 'check';
  if (slug.endsWith('limit')) return slug;
  const singular = slug === 'requests' ? 'request' : slug;
  return `${singular}_limit`;
}
