/**
 * Errors of the shared HTTP client. Every one carries `code` (stable, for logs and the API) and
 * `retryable`, which activities translate into Temporal's retry policy: a retryable error is worth
 * another activity attempt later, a non-retryable one will fail the same way again.
 */
export abstract class HttpClientError extends Error {
  abstract readonly code: string;
  abstract readonly retryable: boolean;
  readonly url: string;

  protected constructor(message: string, url: string, options?: { cause?: unknown }) {
    super(message, options);
    this.url = url;
  }
}

export class RobotsBlockedError extends HttpClientError {
  override readonly name = 'RobotsBlockedError';
  readonly code = 'robots_blocked';
  /**
   * `disallowed`: robots.txt forbids the URL, asking again will not change that. `unreachable`:
   * robots.txt answered 5xx or could not be fetched, which RFC 9309 §2.3.1.4 says to treat as
   * disallow-all only for a while, so that case is worth a later retry.
   */
  readonly reason: 'disallowed' | 'unreachable';
  readonly retryable: boolean;

  constructor(url: string, reason: 'disallowed' | 'unreachable') {
    super(
      reason === 'disallowed' ? `robots.txt disallows ${url}` : `robots.txt for ${url} is unreachable; treating the host as disallowed for now`,
      url,
    );
    this.reason = reason;
    this.retryable = reason === 'unreachable';
  }
}

export class HttpStatusError extends HttpClientError {
  override readonly name = 'HttpStatusError';
  readonly code = 'http_status';
  readonly status: number;
  /** From the response's Retry-After header (already capped), when it had one. */
  readonly retryAfterMs?: number;
  readonly retryable: boolean;

  constructor(url: string, status: number, retryAfterMs?: number) {
    super(`GET ${url} answered ${status}`, url);
    this.status = status;
    this.retryAfterMs = retryAfterMs;
    this.retryable = status === 429 || status >= 500;
  }
}

export class ResponseTooLargeError extends HttpClientError {
  override readonly name = 'ResponseTooLargeError';
  readonly code = 'response_too_large';
  readonly retryable = false;
  readonly limitBytes: number;

  constructor(url: string, limitBytes: number) {
    super(`GET ${url}: response body exceeds ${limitBytes} bytes`, url);
    this.limitBytes = limitBytes;
  }
}

/** A 2xx body that is not what was asked for (invalid JSON); retrying gets the same bytes. */
export class MalformedResponseError extends HttpClientError {
  override readonly name = 'MalformedResponseError';
  readonly code = 'malformed_response';
  readonly retryable = false;
  /** What was wrong, e.g. "body is not valid JSON (Unexpected end of JSON input)". */
  readonly reason: string;

  constructor(url: string, reason: string, options?: { cause?: unknown }) {
    super(`malformed response from ${url}: ${reason}`, url, options);
    this.reason = reason;
  }
}

export class RequestTimeoutError extends HttpClientError {
  override readonly name = 'RequestTimeoutError';
  readonly code = 'request_timeout';
  readonly retryable = true;
  readonly timeoutMs: number;

  constructor(url: string, timeoutMs: number) {
    super(`GET ${url} timed out after ${timeoutMs} ms`, url);
    this.timeoutMs = timeoutMs;
  }
}

/** Connection refused/reset, DNS failure and the like: the request never got an HTTP answer. */
export class NetworkError extends HttpClientError {
  override readonly name = 'NetworkError';
  readonly code = 'network_error';
  readonly retryable = true;

  constructor(url: string, cause: unknown) {
    super(`GET ${url} failed: ${describeCause(cause)}`, url, { cause });
  }
}

export class TooManyRedirectsError extends HttpClientError {
  override readonly name = 'TooManyRedirectsError';
  readonly code = 'too_many_redirects';
  readonly retryable = false;
  readonly limit: number;
  /** Every redirect answered before giving up (the URL that redirected and its status), in order. */
  readonly hops: ReadonlyArray<{ url: string; status: number }>;

  constructor(url: string, limit: number, hops: ReadonlyArray<{ url: string; status: number }> = []) {
    super(`GET ${url}: more than ${limit} redirects`, url);
    this.limit = limit;
    this.hops = hops;
  }
}

/**
 * The URL's host is, or resolves to, an address the crawler must not reach (loopback, private,
 * link-local, metadata, ...) and allowed_private_hosts does not list it. Asking again gets the same
 * answer, so it is not retried.
 */
export class HostRefusedError extends HttpClientError {
  override readonly name = 'HostRefusedError';
  readonly code = 'host_refused_private_address';
  readonly retryable = false;
  readonly host: string;
  /** The offending address (or the host name itself for a metadata name). */
  readonly address: string;
  readonly addressClass: string;

  constructor(url: string, host: string, address: string, addressClass: string) {
    super(
      `refused ${url}: host ${host} ${host === address ? 'is' : `resolves to ${address}`}, a ${addressClass} address the crawler does not reach (list the host in allowed_private_hosts to allow it)`,
      url,
    );
    this.host = host;
    this.address = address;
    this.addressClass = addressClass;
  }
}

export class InvalidUrlError extends HttpClientError {
  override readonly name = 'InvalidUrlError';
  readonly code = 'invalid_url';
  readonly retryable = false;

  constructor(url: string, why: string) {
    super(`${why}: ${url}`, url);
  }
}

/**
 * The caller's signal fired. Named `AbortError` like fetch's own abort so existing
 * `err.name === 'AbortError'` checks (and Temporal cancellation handling) treat it the same way.
 */
export class RequestAbortedError extends HttpClientError {
  override readonly name = 'AbortError';
  readonly code = 'aborted';
  readonly retryable = false;

  constructor(url: string, reason?: unknown) {
    super(`GET ${url} aborted`, url, { cause: reason });
  }
}

export function isHttpClientError(err: unknown): err is HttpClientError {
  return err instanceof HttpClientError;
}

function describeCause(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  // undici reports "fetch failed" and puts the real reason (ECONNREFUSED, ...) one level down.
  const inner = (cause as { cause?: unknown }).cause;
  return inner instanceof Error ? `${cause.message}: ${inner.message}` : cause.message;
}
