import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import { readCookie, SESSION_COOKIE, SESSION_MAX_AGE_SECONDS, SessionSigner, sameSecret } from './api-token';
import { loginPage, safeNext } from './login-page';
import { crossSiteRefusal, fromLoopbackPeer } from './request-origin';

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
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_LOGIN_BODY_BYTES) {
        resolve(null);
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
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
 * Without a token (loopback bind) only the cross-site checks apply.
 */
export function apiAuthMiddleware(opts: ApiAuthOptions): Middleware {
  const { token } = opts;
  const sessions = token === undefined ? null : new SessionSigner(token, opts.now);
  const refuse = (res: ServerResponse, message: string) => sendError(res, 401, 'Unauthorized', message, { 'www-authenticate': 'Bearer realm="jobctrl"' });

  async function login(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const contentType = (req.headers['content-type'] ?? '').toLowerCase();
    const isForm = !contentType.startsWith('application/json');
    const body = await readBody(req);
    if (body === null) return sendError(res, 413, 'Payload Too Large', `a login body is at most ${MAX_LOGIN_BODY_BYTES} bytes`);
    const fields = loginFields(contentType, body);
    const next = safeNext(fields.next);
    if (!sessions || !token) return isForm ? redirect(res, next) : void res.writeHead(204).end();
    if (typeof fields.token !== 'string' || !sameSecret(fields.token, token)) {
      return isForm ? redirect(res, `${LOGIN_PAGE_PATH}?failed=1&next=${encodeURIComponent(next)}`) : refuse(res, 'wrong API token');
    }
    const cookie = sessionCookie(req, sessions.issue(), SESSION_MAX_AGE_SECONDS);
    if (isForm) return redirect(res, next, cookie);
    res.statusCode = 204;
    res.setHeader('set-cookie', cookie);
    res.setHeader('cache-control', 'no-store');
    res.end();
  }

  return (req, res, next) => {
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
      const cookie = readCookie(req.headers.cookie, SESSION_COOKIE);
      sessions?.revoke(cookie);
      res.statusCode = 204;
      res.setHeader('set-cookie', sessionCookie(req, '', 0));
      return void res.end();
    }
    if (!sessions || !token) return next();

    const inUrl = TOKEN_QUERY_KEYS.find((k) => url.searchParams.has(k));
    if (inUrl) return refuse(res, `a token in the URL ("${inUrl}") is not accepted (URLs end up in logs and history): send Authorization: Bearer <token>`);
    if (path === HEALTH_PATH && method === 'GET' && fromLoopbackPeer(req)) return next();

    const authorization = req.headers.authorization;
    if (authorization !== undefined) {
      const bearer = /^Bearer +(\S+) *$/i.exec(authorization);
      // A wrong credential is refused even beside a valid cookie: the caller meant this one.
      return bearer && sameSecret(bearer[1], token) ? next() : refuse(res, bearer ? 'wrong API token' : 'the Authorization header must be "Bearer <token>"');
    }
    if (sessions.valid(readCookie(req.headers.cookie, SESSION_COOKIE))) return next();

    // A person opening the UI (or the docs page) is sent to the login page; scripts and the UI's fetch get the 401.
    if ((method === 'GET' || method === 'HEAD') && (req.headers.accept ?? '').includes('text/html')) {
      return redirect(res, `${LOGIN_PAGE_PATH}?next=${encodeURIComponent(`${path}${url.search}`)}`);
    }
    refuse(res, 'this API requires its token: send Authorization: Bearer <token>, or log in at /login');
  };
}
