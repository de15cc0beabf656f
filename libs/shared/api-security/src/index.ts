// The API's HTTP security, wired by apps/api before any route: the token (Bearer or the login page's
// session cookie, its logouts kept in SQLite, the wrong-token rate limit), cross-site and DNS-rebinding
// refusals, security headers, the JSON depth bound.
export * from './api-token';
export * from './api-auth.middleware';
export * from './json-depth';
export * from './json-keys';
export * from './login-page';
export * from './request-origin';
export * from './request-path';
export * from './security-headers';
export * from './login-rate-limit';
export * from './revoked-session.repository';
