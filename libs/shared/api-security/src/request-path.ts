/**
 * Why a request target is refused, or null when it is a path in normal form (#39 item 4).
 *
 * The token check reads the path with the WHATWG URL parser (a backslash is a slash, `..` and `%2e%2e`
 * segments are resolved, `//host/…` is an authority), while express routes the raw path. Those two
 * readings disagreed: `GET /v1/jobs/..\health` was /v1/health to the token check (open to loopback
 * peers) and the jobs controller to the router. Rather than normalise one way and hope every later
 * reader (router, static files, the UI fallback) agrees, anything either side could rewrite is refused,
 * so both see the same bytes. No client of this API (the UI, scripts, curl without --path-as-is)
 * sends such paths.
 */
export function requestPathRefusal(target: string): string | null {
  // Absolute-form (`GET http://host/…`) is for proxies, `*` for server-wide OPTIONS: neither is a route here.
  if (!target.startsWith('/')) return 'the request path must start with "/"';
  const query = target.indexOf('?');
  const path = query === -1 ? target : target.slice(0, query);
  if (/\\|%5c/i.test(path)) return 'the request path may not contain a backslash (raw or %5C)';
  if (path.includes('//')) return 'the request path may not contain an empty segment ("//")';
  if (path.split('/').some((segment) => /^(\.|%2e){1,2}$/i.test(segment))) return 'the request path may not contain "." or ".." segments (raw or %2E-encoded)';
  // Whatever else the URL parser would rewrite (a fragment, characters it percent-encodes) is refused
  // too: the token check must read exactly the path the router gets.
  if (new URL(target, 'http://jobctrl.invalid').pathname !== path) return 'the request path is not in normal form (percent-encode it as a URL parser would)';
  return null;
}
