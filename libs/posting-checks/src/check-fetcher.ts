import {
  RequestAbortedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  TooManyRedirectsError,
  type ExchangeOptions,
  type ExchangeResult,
  type HostReservation,
} from '@jobctrl/shared/http';
import type { PostingResponse } from './availability.model';
import {
  MAX_BROWSER_RESOURCES_PER_CHECK,
  MAX_BYTES_PER_CHECK,
  MAX_POSTING_REQUESTS_PER_CHECK,
  MAX_REDIRECT_HOPS,
  MAX_RESPONSE_BYTES,
  OPERATION_TIMEOUT_MS,
} from './posting-check.limits';

/** The part of the shared host policy a check uses (HostPolicyHttpClient implements it). */
export interface CheckHttpPort {
  exchange(url: string, opts: ExchangeOptions): Promise<ExchangeResult>;
  reserveHost(url: string, opts?: { signal?: AbortSignal; robots?: boolean }): Promise<HostReservation>;
}

/**
 * Called once a browser resource's request ended: its status (undefined when it failed) and the
 * body bytes it read. Returns whether the body may reach the page.
 */
export type SettleResource = (outcome: { status?: number; bytes: number }) => boolean;

/** Admits (or refuses, with null) one request a rendered page makes. */
export type AdmitResource = (url: string, info: { signal: AbortSignal; navigation: boolean }) => Promise<SettleResource | null>;

/**
 * The browser a check renders through. Domain libs do not import each other: the worker app hands
 * in enrichment's ChromiumRenderer, which implements this.
 */
export interface CheckRendererPort {
  renderPage(
    url: string,
    opts: { signal: AbortSignal; html?: string; timeoutMs: number; admitResource: AdmitResource },
  ): Promise<{ html: string; finalUrl: string }>;
}

export type CheckLimit = 'requests' | 'redirects' | 'bytes_per_response' | 'bytes_per_check' | 'browser_resources' | 'timeout';

/**
 * A check hit one of its bounds. Not the employer's answer: the ladder records it as `unknown`
 * evidence (and, being local, it must not count towards the job's evidence backoff).
 */
export class CheckLimitError extends Error {
  override readonly name = 'CheckLimitError';
  readonly code = 'check_limit';

  constructor(
    readonly limit: CheckLimit,
    readonly url: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(`posting check stopped at its ${limit} bound (${url}): ${JSON.stringify(details)}`);
  }
}

export interface CheckFetcherLimits {
  maxRequests: number;
  maxRedirectHops: number;
  maxBrowserResources: number;
  maxResponseBytes: number;
  maxBytesPerCheck: number;
  operationTimeoutMs: number;
}

export const DEFAULT_CHECK_FETCHER_LIMITS: Readonly<CheckFetcherLimits> = Object.freeze({
  maxRequests: MAX_POSTING_REQUESTS_PER_CHECK,
  maxRedirectHops: MAX_REDIRECT_HOPS,
  maxBrowserResources: MAX_BROWSER_RESOURCES_PER_CHECK,
  maxResponseBytes: MAX_RESPONSE_BYTES,
  maxBytesPerCheck: MAX_BYTES_PER_CHECK,
  operationTimeoutMs: OPERATION_TIMEOUT_MS,
});

export interface CheckFetcherOptions {
  http: CheckHttpPort;
  renderer?: CheckRendererPort;
  /** The check's cancellation: once it fires nothing new starts and what is in flight is aborted. */
  signal?: AbortSignal;
  /** Tests shrink these (a 20 s timeout would make a timeout spec slow); production uses the spec's. */
  limits?: Partial<CheckFetcherLimits>;
}

export interface CheckUsage {
  /** Posting/API requests started: first requests and retries (redirect hops are counted apart). */
  requests: number;
  /** Redirect hops followed, over all the check's exchanges. */
  redirects: number;
  /** Body bytes read: HTTP responses and browser resources. */
  bytes: number;
  /** Browser resources admitted. */
  browserResources: number;
}

const ACCEPT = {
  json: 'application/json',
  html: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8',
} as const;

/**
 * Everything one posting check may fetch, under the spec's per-check bounds ("Saved Posting Check
 * Bounds"). One instance per check. Counting rules:
 * - a request is every network request of an exchange that is not a redirect hop: the first and
 *   each retry (a retried 429 is a second request to the employer). Hops are bounded apart, per
 *   exchange, as the spec's "four canonical redirect hops" (and the limits file excludes them from
 *   the 12), and each hop still passes its own host's gate;
 * - bytes are body bytes kept, HTTP and browser alike; the per-response cap is the smaller of the
 *   1 MB cap and what is left of the check's 12 MB, so the last response cannot overshoot it;
 * - browser resources are every request a rendered page makes (redirect hops included, the
 *   pre-fetched document excluded); each reserves its actual host through the shared gate.
 * robots.txt fetches are the host policy's, shared and cached across checks, and are not counted.
 */
export class CheckFetcher {
  private readonly limits: CheckFetcherLimits;
  private readonly controller = new AbortController();
  private readonly counts: CheckUsage = { requests: 0, redirects: 0, bytes: 0, browserResources: 0 };
  private readonly detach: () => void;

  constructor(private readonly options: CheckFetcherOptions) {
    this.limits = { ...DEFAULT_CHECK_FETCHER_LIMITS, ...options.limits };
    const signal = options.signal;
    const onAbort = (): void => this.controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) onAbort();
    this.detach = () => signal?.removeEventListener('abort', onAbort);
  }

  usage(): CheckUsage {
    return { ...this.counts };
  }

  /** Stops listening to the caller's signal (a finished check); in-flight work is unaffected. */
  dispose(): void {
    this.detach();
  }

  async fetch(url: string, kind: 'json' | 'html'): Promise<PostingResponse> {
    const signal = this.controller.signal;
    this.throwIfAborted(url);
    const remaining = this.limits.maxBytesPerCheck - this.counts.bytes;
    if (remaining <= 0) throw new CheckLimitError('bytes_per_check', url, { limitBytes: this.limits.maxBytesPerCheck });
    // Checked here too, so a spent check does not even wait for the host's robots.txt.
    if (this.counts.requests >= this.limits.maxRequests) throw new CheckLimitError('requests', url, { limit: this.limits.maxRequests });
    const cap = Math.min(this.limits.maxResponseBytes, remaining);
    let hops = 0;
    try {
      const result = await this.options.http.exchange(url, {
        accept: ACCEPT[kind],
        signal,
        maxRedirects: this.limits.maxRedirectHops,
        maxResponseBytes: cap,
        timeoutMs: this.limits.operationTimeoutMs,
        // A host asking us to come back later is answered by the check as it is (429: blocked),
        // not by holding the job's five-minute lease through a cooldown of up to ten minutes.
        maxRetryWaitMs: this.limits.operationTimeoutMs,
        onBytes: (n) => (this.counts.bytes += n),
        beforeRequest: (next, { kind: requestKind }) => {
          this.throwIfAborted(next);
          if (requestKind === 'redirect') {
            hops += 1;
            this.counts.redirects += 1;
            return;
          }
          if (this.counts.requests >= this.limits.maxRequests) throw new CheckLimitError('requests', next, { limit: this.limits.maxRequests });
          this.counts.requests += 1;
        },
      });
      return { url: result.url, finalUrl: result.finalUrl, status: result.status, hops: result.hops, contentType: result.contentType, body: result.body };
    } catch (err) {
      throw this.translate(err, url, cap, hops);
    }
  }

  /**
   * Renders `url` (from `html` when the page was already fetched) with every request the page makes
   * admitted one by one: counted against the check's resources and bytes, and started only under a
   * reservation of its actual host. A render that needs more than the check allows is stopped and
   * fails with CheckLimitError: a page missing some of its resources proves nothing either way.
   */
  async render(url: string, html?: string): Promise<{ html: string; finalUrl: string }> {
    const renderer = this.options.renderer;
    if (!renderer) throw new Error('this posting check has no browser to render with');
    this.throwIfAborted(url);
    const render = new AbortController();
    let stopped: CheckLimitError | undefined;
    const stop = (error: CheckLimitError): void => {
      stopped ??= error;
      render.abort(error);
    };
    const onCheckAbort = (): void => render.abort(this.controller.signal.reason);
    this.controller.signal.addEventListener('abort', onCheckAbort, { once: true });
    // The renderer has its own navigation timeout; this one also covers its queue, its settle wait
    // and a page that keeps requesting after load.
    const timer = setTimeout(() => stop(new CheckLimitError('timeout', url, { timeoutMs: this.limits.operationTimeoutMs })), this.limits.operationTimeoutMs);

    const admitResource: AdmitResource = async (resourceUrl, { signal, navigation }) => {
      if (render.signal.aborted || signal.aborted) return null;
      if (this.counts.browserResources >= this.limits.maxBrowserResources) {
        // The page wants more than a check may load: what it shows without them proves nothing,
        // so the render stops here rather than loading the rest for a result that is discarded.
        stop(new CheckLimitError('browser_resources', resourceUrl, { limit: this.limits.maxBrowserResources }));
        return null;
      }
      this.counts.browserResources += 1;
      let reservation: HostReservation;
      try {
        reservation = await this.options.http.reserveHost(resourceUrl, { signal: AbortSignal.any([render.signal, signal]), robots: navigation });
      } catch {
        // Aborted while waiting, robots.txt said no, or not an http(s) URL: the page goes without it.
        return null;
      }
      if (render.signal.aborted) {
        reservation.release();
        return null;
      }
      return ({ status, bytes }) => {
        reservation.release({ status });
        this.counts.bytes += bytes;
        if (this.counts.bytes > this.limits.maxBytesPerCheck) {
          stop(new CheckLimitError('bytes_per_check', resourceUrl, { limitBytes: this.limits.maxBytesPerCheck, bytes: this.counts.bytes }));
          return false;
        }
        if (bytes > this.limits.maxResponseBytes) {
          stop(new CheckLimitError('bytes_per_response', resourceUrl, { limitBytes: this.limits.maxResponseBytes, bytes }));
          return false;
        }
        return true;
      };
    };

    try {
      const result = await renderer.renderPage(url, { signal: render.signal, html, timeoutMs: this.limits.operationTimeoutMs, admitResource });
      if (stopped) throw stopped;
      return result;
    } catch (err) {
      if (stopped) throw stopped;
      if (err instanceof CheckLimitError) throw err;
      if (this.controller.signal.aborted) throw new RequestAbortedError(url, this.controller.signal.reason);
      // The renderer's own navigation timeout (Playwright's TimeoutError) is the same bound.
      if (err instanceof Error && err.name === 'TimeoutError') throw new CheckLimitError('timeout', url, { timeoutMs: this.limits.operationTimeoutMs });
      throw err;
    } finally {
      clearTimeout(timer);
      this.controller.signal.removeEventListener('abort', onCheckAbort);
      // Whatever the page still had pending is cut off with the render.
      render.abort();
    }
  }

  private throwIfAborted(url: string): void {
    if (this.controller.signal.aborted) throw new RequestAbortedError(url, this.controller.signal.reason);
  }

  private translate(err: unknown, url: string, cap: number, hops: number): unknown {
    if (err instanceof TooManyRedirectsError) return new CheckLimitError('redirects', url, { limit: this.limits.maxRedirectHops, hops: err.hops });
    if (err instanceof RequestTimeoutError) return new CheckLimitError('timeout', err.url, { timeoutMs: err.timeoutMs, hops });
    if (err instanceof ResponseTooLargeError) {
      // The cap was the check's remainder, not the per-response limit: the check's budget ran out.
      const limit = cap < this.limits.maxResponseBytes ? 'bytes_per_check' : 'bytes_per_response';
      return new CheckLimitError(limit, err.url, { limitBytes: err.limitBytes, bytesSoFar: this.counts.bytes });
    }
    return err;
  }
}
