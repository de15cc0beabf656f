import { LlmError, codeForStatus, parseRetryAfterMs } from './llm.errors';

export interface HttpCall {
  url: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export interface TransportOptions {
  /** Budget for this one HTTP attempt, response body included. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** For error messages, e.g. "openai gpt-4o-mini". */
  label: string;
}

/** Longest slice of a provider's error body kept in an error message. */
const ERROR_DETAIL_CHARS = 300;

/**
 * POSTs JSON and returns the decoded 2xx body, translating every failure into an `LlmError`. One
 * AbortController serves both the timeout and the caller's signal, and which of them fired is
 * remembered, because fetch reports both the same way (an AbortError).
 */
export async function postJson(call: HttpCall, options: TransportOptions): Promise<unknown> {
  const { signal, timeoutMs, label } = options;
  if (signal?.aborted) throw cancelled(label, signal.reason, false);

  const controller = new AbortController();
  let abortedBy: 'timeout' | 'caller' | undefined;
  const timer = setTimeout(() => {
    abortedBy ??= 'timeout';
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = (): void => {
    abortedBy ??= 'caller';
    controller.abort();
  };
  signal?.addEventListener('abort', onCallerAbort, { once: true });

  try {
    let response: Response;
    let text: string;
    try {
      response = await fetch(call.url, {
        method: 'POST',
        headers: call.headers,
        body: JSON.stringify(call.body),
        signal: controller.signal,
      });
      text = await response.text();
    } catch (err) {
      // Once fetch has started, an abort or a timeout may well have reached a server that is now
      // generating (and billing) the answer; only a connection that never opened sent nothing.
      if (abortedBy === 'caller') throw cancelled(label, signal?.reason, true);
      if (abortedBy === 'timeout') throw new LlmError('llm_timeout', `${label}: no answer within ${timeoutMs} ms`, { cause: err, unanswered: true });
      throw new LlmError('llm_network', `${label}: ${describeNetworkError(err)}`, { cause: err, unanswered: !neverConnected(err) });
    }

    if (!response.ok) {
      const code = codeForStatus(response.status);
      const retryAfterMs =
        code === 'llm_rate_limited' || code === 'llm_server'
          ? parseRetryAfterMs(response.headers.get('retry-after'), response.headers.get('retry-after-ms'))
          : undefined;
      const detail = providerErrorDetail(text);
      throw new LlmError(code, `${label} answered HTTP ${response.status}${detail ? `: ${detail}` : ''}`, {
        status: response.status,
        retryAfterMs,
      });
    }

    try {
      return JSON.parse(text) as unknown;
    } catch (err) {
      // A 2xx that is not JSON comes from a proxy or an overloaded gateway, not from the model.
      throw new LlmError('llm_server', `${label} answered HTTP ${response.status} with a body that is not JSON`, {
        status: response.status,
        cause: err,
        unanswered: true,
      });
    }
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onCallerAbort);
  }
}

function cancelled(label: string, reason: unknown, unanswered: boolean): LlmError {
  return new LlmError('llm_cancelled', `${label}: request cancelled`, { cause: reason, unanswered });
}

/** Failures of the connect phase: the request never reached a server, so nothing can be billed. */
const CONNECT_ERROR_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);

function neverConnected(err: unknown): boolean {
  // Read structurally: fetch's errors may come from another realm (a test VM), where instanceof fails.
  const code = (err as { cause?: { code?: unknown } } | null)?.cause?.code;
  return typeof code === 'string' && CONNECT_ERROR_CODES.has(code);
}

function describeNetworkError(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  // undici reports "fetch failed" and keeps the real reason (ECONNREFUSED, ...) one level down.
  const inner = (err as { cause?: unknown }).cause;
  return inner instanceof Error ? `${err.message}: ${inner.message}` : err.message;
}

/** Both providers answer errors as `{ error: { message } }`; fall back to the raw text. */
function providerErrorDetail(text: string): string {
  let detail = text.trim();
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } };
    if (typeof parsed?.error?.message === 'string') detail = parsed.error.message;
  } catch {
    // Not JSON (an HTML error page, say): the raw text is all there is.
  }
  return detail.length > ERROR_DETAIL_CHARS ? `${detail.slice(0, ERROR_DETAIL_CHARS)}…` : detail;
}
