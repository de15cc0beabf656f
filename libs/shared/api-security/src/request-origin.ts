import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

/** localhost, 127.0.0.0/8 and ::1 (with or without brackets, IPv4-mapped too). */
export function isLoopbackName(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/^::ffff:/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/** The hostname of a Host header or an origin's authority (port and IPv6 brackets dropped). */
function hostnameOf(authority: string): string {
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(authority);
  if (bracketed) return bracketed[1];
  return authority.replace(/:\d+$/, '');
}

/** Whether the TCP peer is this machine (what a local supervisor polling health is). */
export function fromLoopbackPeer(req: IncomingMessage): boolean {
  return isLoopbackName(req.socket.remoteAddress ?? '');
}

/**
 * Why a browser-borne request must not reach the API, or null. Two attacks on an API bound to the
 * user's loopback: a hostile page POSTing a form or text/plain body at 127.0.0.1 (a "simple" request
 * needs no CORS preflight, so CORS being off does not stop it), and DNS rebinding (a hostile name
 * resolving to 127.0.0.1 makes the page same-origin, so only the Host header gives it away).
 */
export function crossSiteRefusal(req: IncomingMessage, boundToLoopback: boolean): string | null {
  const host = req.headers.host ?? '';
  if (boundToLoopback && !isLoopbackName(hostnameOf(host))) {
    return `the API listens on loopback only and answers requests addressed to localhost or 127.0.0.1, not Host "${host}"`;
  }
  const method = req.method ?? 'GET';
  if (method === 'GET' || method === 'HEAD') return null;
  if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
    return 'cross-origin requests are not allowed (CORS is off)';
  }
  // Fetch Metadata is the browser's own word. It decides first because under our
  // `Referrer-Policy: no-referrer` Chromium sends `Origin: null` on the login page's same-origin form post.
  const site = req.headers['sec-fetch-site'];
  if (site === 'same-origin') return null;
  if (site === 'cross-site') return `a cross-site ${method} is not accepted`;
  const origin = req.headers.origin;
  if (origin !== undefined) {
    let originHost: string;
    try {
      originHost = new URL(origin).host;
    } catch {
      return `a request from origin "${origin}" is not accepted`;
    }
    // The UI is served by the API itself (same host); `nx serve web` proxies from another loopback port.
    const sameHost = originHost === host;
    const bothLoopback = isLoopbackName(hostnameOf(originHost)) && isLoopbackName(hostnameOf(host));
    return sameHost || bothLoopback ? null : `a ${method} from origin "${origin}" is not accepted (only pages served by this API may change anything)`;
  }
  // No Origin and no cross-site Fetch Metadata: not a browser's cross-site request (curl, scripts).
  return null;
}

/** One start-up problem with the API's token settings, as a config issue (key, value, rule). */
export interface ApiTokenIssue {
  key: 'api_token_env' | 'api_host';
  value: unknown;
  rule: string;
}

/**
 * Why the API must not start with these settings: a token variable named but empty (every request
 * would be refused, or worse, a later fix would be forgotten), or a non-loopback bind with no token.
 */
export function apiTokenIssues(api: { host: string; tokenEnv?: string; token?: string }): ApiTokenIssue[] {
  if (api.tokenEnv !== undefined && !api.token) {
    return [{ key: 'api_token_env', value: api.tokenEnv, rule: `the environment variable ${api.tokenEnv} is unset or empty: set it to the API token before starting (or remove api_token_env to listen on loopback without one)` }];
  }
  if (!api.token && !isLoopbackName(api.host)) {
    return [{ key: 'api_host', value: api.host, rule: 'listening beyond loopback requires an API token: set api_token_env to the name of an environment variable holding it' }];
  }
  return [];
}
