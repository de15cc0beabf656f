export * from './clock.util';
export * from './host-policy.http-client';
export * from './http-client.model';
export * from './http.errors';
export * from './robots.rules';
export * from './retry.rules';
export * from './address-guard.rules';
export * from './pinned-fetch.transport';
