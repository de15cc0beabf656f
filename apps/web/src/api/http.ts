// The one way the UI talks to the API: same-origin fetch under /v1 (the API serves the UI, and
// `nx serve web` proxies /v1), JSON in and out, and every failure turned into one ApiError shape so a
// page can show a message, a code (409 refusals), a wait (429) and the fields at fault (400) without
// knowing which controller answered.

/** One bad field of a 400 (or 409), as the API names it: dotted path, the value sent, the rule broken. */
export interface FieldError {
  field: string;
  value: unknown;
  rule: string;
}

export interface ApiError {
  /** HTTP status; 0 when no answer came (network down, API stopped). */
  status: number;
  /** The API's machine-readable refusal (e.g. 409 `availability_stale`), else null. */
  code: string | null;
  /** A sentence a person can read. */
  message: string;
  fieldErrors: FieldError[];
  /** A 429's wait before asking again can succeed. */
  retryAfterSeconds: number | null;
  /** A 409's blockers when the API lists several (apply admission). */
  blockers: string[];
}

export class ApiRequestError extends Error {
  constructor(readonly error: ApiError) {
    super(error.message);
    this.name = 'ApiRequestError';
  }
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function fieldErrorsOf(v: unknown): FieldError[] {
  if (!Array.isArray(v)) return [];
  return v.filter(isRecord).map((e) => ({ field: String(e.field ?? ''), value: e.value, rule: String(e.rule ?? '') }));
}

const STATUS_TEXT: Record<number, string> = {
  400: 'The request was not accepted',
  404: 'Not found',
  409: 'Refused',
  429: 'Too many requests',
  500: 'The API failed',
  502: 'The API is not reachable',
  503: 'The worker is not ready',
};

/**
 * Any non-2xx answer (parsed JSON body, or text/null when the body was not JSON) → ApiError. Nest's
 * own errors carry `message` as a string or, for its built-in validation, a list of strings.
 */
export function toApiError(status: number, body: unknown, retryAfterHeader?: string | null): ApiError {
  const b = isRecord(body) ? body : {};
  const raw = b.message;
  const fallback = STATUS_TEXT[status] ?? (status === 0 ? 'The API did not answer' : `HTTP ${status}`);
  const message = typeof raw === 'string' && raw.trim() ? raw : Array.isArray(raw) ? raw.map(String).join('; ') : typeof body === 'string' && body.trim() && body.length < 300 ? body.trim() : fallback;
  const fromBody = typeof b.retryAfterSeconds === 'number' ? b.retryAfterSeconds : null;
  const fromHeader = retryAfterHeader && /^\d+$/.test(retryAfterHeader.trim()) ? Number(retryAfterHeader) : null;
  return {
    status,
    code: typeof b.code === 'string' ? b.code : null,
    message,
    fieldErrors: fieldErrorsOf(b.errors),
    retryAfterSeconds: fromBody ?? fromHeader,
    blockers: Array.isArray(b.blockers) ? b.blockers.map(String) : [],
  };
}

/** A readable line for an error banner: the message, the wait of a 429, the code of a refusal. */
export function describeApiError(e: ApiError): string {
  if (e.status === 0) return `${e.message}. Is the API running?`;
  if (e.status === 429 && e.retryAfterSeconds !== null) return `${e.message} — try again in ${formatWait(e.retryAfterSeconds)}.`;
  if (e.code && !e.message.includes(e.code)) return `${e.message} (${e.code})`;
  return e.message;
}

function formatWait(seconds: number): string {
  if (seconds < 90) return `${seconds} s`;
  const minutes = Math.ceil(seconds / 60);
  return minutes < 90 ? `${minutes} min` : `${Math.ceil(minutes / 60)} h`;
}

/** The field errors that belong to one form field (its own path or anything under it). */
export function errorsFor(e: ApiError | null, field: string): FieldError[] {
  if (!e) return [];
  return e.fieldErrors.filter((f) => f.field === field || f.field.startsWith(`${field}.`) || f.field.startsWith(`${field}[`));
}

export type Query = Record<string, string | number | boolean | null | undefined | readonly (string | number)[]>;

/** `?a=1&b=x` from the set values only (null/undefined/'' are left out, arrays repeat the key). */
export function queryString(query: Query | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) for (const v of value) params.append(key, String(v));
    else params.append(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

export interface RequestOptions {
  query?: Query;
  body?: unknown;
  signal?: AbortSignal;
}

/** The API's login page (served by the API, not this app), sending the browser back to `here` afterwards. */
export function loginUrl(here: { pathname: string; search: string }): string {
  return `/login?next=${encodeURIComponent(`${here.pathname}${here.search}`)}`;
}

/** Where a 401 sends the browser; a test swaps `go`. */
export const unauthorized = { go: (url: string) => window.location.assign(url) };

/** Fetches `path` (e.g. '/v1/jobs'); resolves the parsed JSON (null for an empty body), rejects with ApiRequestError. */
export async function apiRequest<T>(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, opts: RequestOptions = {}): Promise<T> {
  let res: Response;
  try {
    res = await fetch(`${path}${queryString(opts.query)}`, {
      method,
      headers: opts.body === undefined ? { accept: 'application/json' } : { accept: 'application/json', 'content-type': 'application/json' },
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: opts.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiRequestError(toApiError(0, null));
  }
  const text = await res.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
  }
  // A 401: the API has a token (api_token_env) and this browser's session is missing or over.
  if (res.status === 401) unauthorized.go(loginUrl(window.location));
  if (!res.ok) throw new ApiRequestError(toApiError(res.status, body, res.headers.get('retry-after')));
  return body as T;
}

/** The ApiError inside anything a request threw (a programming error becomes a status-0 message). */
export function asApiError(err: unknown): ApiError {
  if (err instanceof ApiRequestError) return err.error;
  return { ...toApiError(0, null), message: err instanceof Error ? err.message : String(err) };
}
