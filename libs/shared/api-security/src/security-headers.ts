import helmet from 'helmet';
import type { Middleware } from './api-auth.middleware';

/**
 * helmet's defaults (CSP, nosniff, frame-ancestors, referrer policy, CORP same-origin, …) with one
 * change: no `upgrade-insecure-requests`. The API serves plain http (loopback, or a LAN address with a
 * token); that directive would make a browser fetch the UI's own scripts over https from a LAN address
 * and load nothing. The built UI (one module script and one stylesheet from /assets, inline style
 * attributes, a data: icon) and the Swagger UI at /v1/docs run under helmet's default policy as is.
 */
export function securityHeaders(): Middleware {
  return helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  }) as Middleware;
}
