import { ApplicationFailure } from '@temporalio/common';

export type LlmErrorCode =
  | 'llm_rate_limited'
  | 'llm_auth'
  | 'llm_bad_request'
  | 'llm_server'
  | 'llm_timeout'
  | 'llm_network'
  | 'llm_invalid_output'
  | 'llm_cancelled';

export interface LlmErrorCodeInfo {
  retryable: boolean;
  meaning: string;
}

/**
 * Every code an `LlmError` can carry, with its retryability. This is the table the docs quote and
 * `toActivityFailure` relies on: a retryable code is worth another Temporal activity attempt, a
 * non-retryable one will fail the same way again (bad key, bad request) or was asked for (cancel).
 */
export const LLM_ERROR_CODES: Readonly<Record<LlmErrorCode, LlmErrorCodeInfo>> = {
  llm_rate_limited: { retryable: true, meaning: 'HTTP 429; retryAfterMs comes from Retry-After when the provider sent it' },
  llm_auth: { retryable: false, meaning: 'HTTP 401/403: missing or rejected API key' },
  llm_bad_request: { retryable: false, meaning: 'HTTP 400/404/413/422 (and other 4xx), or an invalid client configuration' },
  llm_server: { retryable: true, meaning: 'HTTP 5xx or 529 (overloaded), or a 2xx body that is not a well-formed provider response' },
  llm_timeout: { retryable: true, meaning: 'one HTTP attempt exceeded timeoutMs (or the provider answered 408)' },
  llm_network: { retryable: true, meaning: 'no HTTP answer: connection refused/reset, DNS failure' },
  llm_invalid_output: {
    retryable: true,
    meaning: 'the model answered, but its output failed JSON decoding or request.parse after the repair retry',
  },
  llm_cancelled: { retryable: false, meaning: 'request.signal aborted the call' },
};

export interface LlmErrorOptions {
  status?: number;
  retryAfterMs?: number;
  cause?: unknown;
  /** The request left for the server but no answer came back (see `LlmError.unanswered`). */
  unanswered?: boolean;
}

export class LlmError extends Error {
  override readonly name = 'LlmError';
  readonly code: LlmErrorCode;
  readonly retryable: boolean;
  readonly retryAfterMs?: number;
  /** The provider's HTTP status, when it answered one. */
  readonly status?: number;
  /**
   * True when the request was sent and may be running on the server, but no readable answer came
   * back (cancelled or timed out in flight, connection lost, unreadable 2xx): a provider bills such
   * a call, so the client charges it at its worst case instead of dropping it from the ledger.
   */
  readonly unanswered: boolean;

  constructor(code: LlmErrorCode, message: string, options: LlmErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.retryable = LLM_ERROR_CODES[code].retryable;
    if (options.status !== undefined) this.status = options.status;
    if (options.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
    this.unanswered = options.unanswered ?? false;
  }
}

export function isLlmError(err: unknown): err is LlmError {
  return err instanceof LlmError;
}

/** Maps a non-2xx provider status to an error code. */
export function codeForStatus(status: number): LlmErrorCode {
  if (status === 429) return 'llm_rate_limited';
  if (status === 401 || status === 403) return 'llm_auth';
  if (status === 408) return 'llm_timeout';
  // 529 is Anthropic's "overloaded"; it falls in the 5xx range anyway.
  if (status >= 500) return 'llm_server';
  if (status >= 400) return 'llm_bad_request';
  // fetch follows redirects, so anything else is a proxy or gateway misbehaving: treat it as transient.
  return 'llm_server';
}

/**
 * Parses Retry-After (RFC 9110 §10.2.3: delta-seconds or an HTTP-date) into milliseconds from `now`.
 * OpenAI also sends a non-standard `retry-after-ms`, which is more precise, so it wins when present.
 */
export function parseRetryAfterMs(
  retryAfter: string | null | undefined,
  retryAfterMsHeader?: string | null,
  now: number = Date.now(),
): number | undefined {
  const precise = retryAfterMsHeader?.trim();
  if (precise && /^\d+(\.\d+)?$/.test(precise)) return Math.ceil(Number(precise));
  const value = retryAfter?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/**
 * Converts any error from an LLM call into the failure an activity should throw, so Temporal's retry
 * policy follows `LLM_ERROR_CODES` and waits at least as long as the provider asked (Retry-After).
 * Unknown errors (a bug, a failing usage sink) stay retryable under type `llm_unexpected`: the
 * activity's bounded retry policy is a safer default than failing a whole job on the first fluke.
 */
export function toActivityFailure(err: unknown): ApplicationFailure {
  if (err instanceof ApplicationFailure) return err;
  if (err instanceof LlmError) {
    return ApplicationFailure.create({
      message: err.message,
      type: err.code,
      nonRetryable: !err.retryable,
      nextRetryDelay: err.retryAfterMs,
      cause: err,
    });
  }
  const cause = err instanceof Error ? err : undefined;
  return ApplicationFailure.create({
    message: cause ? cause.message : String(err),
    type: 'llm_unexpected',
    nonRetryable: false,
    cause,
  });
}
