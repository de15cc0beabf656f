import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { readCookies, RevokedSession, RevokedSessionStore, SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, SessionSigner, sameSecret } from './api-token';
import { loginPage, safeNext } from './login-page';
import { DEFAULT_LOGIN_RATE_LIMITS, LoginRateLimiter, LoginRateLimits } from './login-rate-limit';
import { crossSiteRefusal, fromLoopbackPeer } from './request-origin';
import { requestPathRefusal } from './request-path';

export const LOGIN_PAGE_PATH = '/login';
export const LOGIN_PATH = '/v1/auth/login';
export const LOGOUT_PATH = '/v1/auth/logout';
export const HEALTH_PATH = '/v1/health';

/** Query parameters a client might put a token in: refused, since URLs end up in logs and history. */
const TOKEN_QUERY_KEYS = ['access_token', 'token', 'api_token', 'api_key', 'apikey', 'key', 'auth', 'authorization'];
const MAX_LOGIN_BODY_BYTES = 8 * 1024;

export interface ApiAuthOptions {
  /** The API token; undefined: no authentication (loopback bind without api_token_env). */
  token: string | undefined;
  /** The API listens on loopback only: requests must then be addressed to a loopback name. */
  boundToLoopback: boolean;
  /** Where logouts outlive the process, and the ones it held at start (see apiAuth). */
  revocations?: { store: RevokedSessionStore; active: readonly RevokedSession[] };
  /** Wrong-token bounds; tests shorten the window. */
  loginRateLimits?: LoginRateLimits;
  now?: () => number;
}

type Next = (err?: unknown) => void;
export type Middleware = (req: IncomingMessage, res: ServerResponse, next: Next) => void;

/** The repo's error body shape ({statusCode, error, message}) for answers given outside Nest. */
export function sendError(res: ServerResponse, statusCode: number, error: string, message: string, headers: Record<string, string> = {}): void {
  res.statusCode = statusCode;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify({ statusCode, error, message }));
}

/** The limiter's answer: 429 with Retry-After in whole seconds (at least 1, so a client never retries at once). */
/** `form`: the login form's post (its `next`), answered with the form again; null: a script, answered in JSON. */
function tooManyAttempts(res: ServerResponse, waitMs: number, scope: 'address' | 'overall', form: { next: string } | null): void {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  const who = scope === 'address' ? 'from this address' : 'to this API from all addresses together';
  const message = `too many wrong API tokens ${who}: try again in ${seconds} s`;
  if (!form) return sendError(res, 429, 'Too Many Requests', message, { 'retry-after': String(seconds) });
  // A person at the login form gets the form back, saying why and for how long.
  res.statusCode = 429;
  res.setHeader('retry-after', String(seconds));
  res.setHeader('content-type', 'text/html; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(loginPage({ next: form.next, failed: false, notice: `Too many wrong tokens ${who}. Try again in ${seconds} s.` }));
}

function redirect(res: ServerResponse, location: string, cookie?: string): void {
  res.statusCode = 303;
  res.setHeader('location', location);
  res.setHeader('cache-control', 'no-store');
  if (cookie) res.setHeader('set-cookie', cookie);
  res.end();
}

function sessionCookie(req: IncomingMessage, value: string, maxAge: number): string {
  // Secure only over TLS: on plain http (loopback, a LAN address) a Secure cookie would never be sent back.
  const secure = (req.socket as TLSSocket).encrypted ? '; Secure' : '';
  return `${SESSION_COOKIE}=${value}; Path=/; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

function readBody(req: IncomingMessage): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Past the bound the rest is read and dropped rather than the socket destroyed: a socket closed with
    // bytes still unread is reset, and the client never saw the 413 (#39). The server's request timeout
    // bounds how long a client can keep sending.
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_LOGIN_BODY_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > MAX_LOGIN_BODY_BYTES ? null : Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/** {token, next} from a form post (the login page) or a JSON body (a script). */
function loginFields(contentType: string, body: string): { token?: unknown; next?: unknown } {
  if (contentType.startsWith('application/json')) {
    try {
      const parsed: unknown = JSON.parse(body);
      return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  const form = new URLSearchParams(body);
  return { token: form.get('token') ?? undefined, next: form.get('next') ?? undefined };
}

/**
 * Everything the API serves (/v1, the UI, the event stream, the OpenAPI document and docs page)
 * passes through here first. With a token configured a request needs `Authorization: Bearer <token>`
 * or the session cookie the login page sets; GET /v1/health stays open to loopback peers so the local
 * supervisor (npm start) can poll it without holding the token — it carries no secret and no user data.
 * Without a token (loopback bind) only the cross-site checks apply. Wrong tokens are rate limited per
 * address and overall (LoginRateLimiter; the login route and Bearer checks), and logouts are kept in a
 * RevokedSessionStore when one is given (apiAuth loads it first).
 */
export function apiAuthMiddleware(opts: ApiAuthOptions): Middleware {
  const { token } = opts;
  const sessions = token === undefined ? null : new SessionSigner(token, opts.now);
  const refuse = (res: ServerResponse, message: string) => sendError(res, 401, 'Unauthorized', message, { 'www-authenticate': 'Bearer realm="jobctrl"' });
  const limiter = token === undefined ? null : new LoginRateLimiter(opts.loginRateLimits ?? DEFAULT_LOGIN_RATE_LIMITS, opts.now);
  sessions?.restore(opts.revocations?.active ?? []);

  /**
   * Before a presented token is compared: an address over its budget is not compared at all (a
   * correct guess would otherwise still get through, so the 429 would only hide the answer).
   * With `overallToo` (the login form) the overall budget applies the same way.
   */
  function limited(req: IncomingMessage, res: ServerResponse, overallToo: boolean, form: { next: string } | null): boolean {
    if (!limiter) return false;
    const addressWait = limiter.addressWaitMs(req.socket.remoteAddress);
    const overallWait = overallToo ? limiter.overallWaitMs() : 0;
    if (addressWait === 0 && overallWait === 0) return false;
    tooManyAttempts(res, addressWait || overallWait, addressWait > 0 ? 'address' : 'overall', form);
    return true;
  }

  /** After a wrong token: counted; 429 once the overall budget is spent, else the caller's own refusal. */
  function wrongToken(req: IncomingMessage, res: ServerResponse, form: { next: string } | null, refusal: () => void): void {
    limiter?.recordFailure(req.socket.remoteAddress);
    const overallWait = limiter?.overallWaitMs() ?? 0;
    if (overallWait > 0) return tooManyAttempts(res, overallWait, 'overall', form);
    refusal();
  }

  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const contentType = (req.headers['content-type'] ?? '').toLowerCase();
    const isForm = !contentType.startsWith('application/json');
    const body = await readBody(req);
    if (body === null) return sendError(res, 413, 'Payload Too Large', `a login body is at most ${MAX_LOGIN_BODY_BYTES} bytes`);
    const fields = loginFields(contentType, body);
    const next = safeNext(fields.next);
    if (!sessions || !token) return isForm ? redirect(res, next) : void res.writeHead(204).end();
    const form = isForm ? { next } : null;
    if (limited(req, res, true, form)) return;
    if (typeof fields.token !== 'string' || !sameSecret(fields.token, token)) {
      return wrongToken(req, res, form, () => (isForm ? redirect(res, `${LOGIN_PAGE_PATH}?failed=1&next=${encodeURIComponent(next)}`) : refuse(res, 'wrong API token')));
    }
    const cookie = sessionCookie(req, sessions.issue(), SESSION_MAX_AGE_SECONDS);
    if (isForm) return redirect(res, next, cookie);
    res.statusCode = 204;
    res.setHeader('set-cookie', cookie);
    res.setHeader('cache-control', 'no-store');
    res.end();
  }

  return (req, res, next) => {
    // First, token or not: the path read below must be the one the router gets (see requestPathRefusal).
    const badPath = requestPathRefusal(req.url ?? '/');
    if (badPath) return sendError(res, 400, 'Bad Request', badPath);
    const url = new URL(req.url ?? '/', 'http://jobctrl.invalid');
    const path = url.pathname;
    const method = req.method ?? 'GET';
    const crossSite = crossSiteRefusal(req, opts.boundToLoopback);
    if (crossSite) return sendError(res, 403, 'Forbidden', crossSite);

    if (path === LOGIN_PAGE_PATH && (method === 'GET' || method === 'HEAD')) {
      const target = safeNext(url.searchParams.get('next'));
      if (!sessions) return redirect(res, target);
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html; charset=utf-8');
      res.setHeader('cache-control', 'no-store');
      return void res.end(method === 'HEAD' ? undefined : loginPage({ next: target, failed: url.searchParams.has('failed') }));
    }
    if (path === LOGIN_PATH && method === 'POST') return void login(req, res).catch(next);
    if (path === LOGOUT_PATH && method === 'POST') {
      // Every session the browser showed ends: it may hold more than one under our name (see readCookies).
      const revoked = sessions ? readCookies(req.headers.cookie, SESSION_COOKIE).map((c) => sessions.revoke(c)).filter((r): r is RevokedSession => r !== null) : [];
      const done = () => {
        res.statusCode = 204;
        res.setHeader('set-cookie', sessionCookie(req, '', 0));
        res.end();
      };
      // Answered once the revocation is on disk: a logout the user saw succeed survives a restart.
      const store = opts.revocations?.store;
      if (revoked.length === 0 || !store) return done();
      const nowSeconds = Math.floor((opts.now ?? Date.now)() / 1000);
      return void revoked.reduce((written, r) => written.then(() => store.add(r, nowSeconds)), Promise.resolve()).then(done, next);
    }
    if (!sessions || !token) return next();

    const inUrl = TOKEN_QUERY_KEYS.find((k) => url.searchParams.has(k));
    if (inUrl) return refuse(res, `a token in the URL ("${inUrl}") is not accepted (URLs end up in logs and history): send Authorization: Bearer <token>`);
    if (path === HEALTH_PATH && method === 'GET' && fromLoopbackPeer(req)) return next();

    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const bearer = /^Bearer +(\S+) *$/i.exec(authorization);
      // A wrong credential is refused even beside a valid cookie: the caller meant this one.
      if (!bearer) return refuse(res, 'the Authorization header must be "Bearer <token>"');
      // A Bearer is a guess like the login form's, so its address's budget applies; the overall one does
      // not stop a valid Bearer (the user's scripts keep working while someone else hammers the form).
      if (limited(req, res, false, null)) return;
      return sameSecret(bearer[1], token) ? next() : wrongToken(req, res, null, () => refuse(res, 'wrong API token'));
    }
    if (readCookies(req.headers.cookie, SESSION_COOKIE).some((c) => sessions.valid(c))) return next();

    // A person opening the UI (or the docs page) is sent to the login page; scripts and the UI's fetch get the 401.
    if ((method === 'GET' || method === 'HEAD') && (req.headers.accept ?? '').includes('text/html')) {
      return redirect(res, `${LOGIN_PAGE_PATH}?next=${encodeURIComponent(`${path}${url.search}`)}`);
    }
    refuse(res, 'this API requires its token: send Authorization: Bearer <token>, or log in at /login');
  };
}

/**
 * apiAuthMiddleware with the logouts a store kept across restarts loaded first (createApi awaits this
 * before the API serves anything, so no request is checked against a partial list).
 */
export async function apiAuth(opts: Omit<ApiAuthOptions, 'revocations'> & { revocationStore?: RevokedSessionStore }): Promise<Middleware> {
  const { revocationStore: store, ...rest } = opts;
  if (!store || rest.token === undefined) return apiAuthMiddleware(rest);
  const active = await store.active(Math.floor((rest.now ?? Date.now)() / 1000));
  return apiAuthMiddleware({ ...rest, revocations: { store, active } });
}
