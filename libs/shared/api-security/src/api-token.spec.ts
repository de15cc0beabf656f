import crypto from 'node:crypto';
import { readCookies, SESSION_MAX_AGE_SECONDS, SessionSigner, sameSecret } from './api-token';
import { jsonDepthExceeds } from './json-depth';
import { reservedJsonKeys } from './json-keys';
import { safeNext } from './login-page';
import { apiTokenIssues, isLoopbackName } from './request-origin';

describe('sameSecret', () => {
  afterEach(() => jest.restoreAllMocks());

  it('compares with crypto.timingSafeEqual over equal-length digests, whatever the lengths given', () => {
    const spy = jest.spyOn(crypto, 'timingSafeEqual');
    expect(sameSecret('s3cret-token', 's3cret-token')).toBe(true);
    expect(sameSecret('s3cret-tokeX', 's3cret-token')).toBe(false);
    expect(sameSecret('', 's3cret-token')).toBe(false);
    expect(sameSecret('s3cret-token-and-more', 's3cret-token')).toBe(false);
    expect(spy).toHaveBeenCalledTimes(4);
    for (const [a, b] of spy.mock.calls) {
      expect((a as Buffer).length).toBe(32);
      expect((b as Buffer).length).toBe(32);
    }
  });
});

describe('SessionSigner', () => {
  let now = Date.UTC(2026, 0, 1);
  const clock = () => now;

  it('issues a signed expiry that holds no token, valid until it expires', () => {
    const signer = new SessionSigner('the-token', clock);
    const cookie = signer.issue();
    expect(cookie).not.toContain('the-token');
    expect(signer.valid(cookie)).toBe(true);
    now += (SESSION_MAX_AGE_SECONDS - 1) * 1000;
    expect(signer.valid(cookie)).toBe(true);
    now += 1000;
    expect(signer.valid(cookie)).toBe(false);
  });

  it('refuses a tampered expiry or MAC, junk, and a session signed with another token', () => {
    const signer = new SessionSigner('the-token', clock);
    const cookie = signer.issue();
    const [exp, nonce, mac] = cookie.split('.');
    expect(signer.valid(`${Number(exp) + 3600}.${nonce}.${mac}`)).toBe(false);
    expect(signer.valid(`${exp}.${nonce.slice(0, -1)}${nonce.endsWith('A') ? 'B' : 'A'}.${mac}`)).toBe(false);
    expect(signer.valid(`${exp}.${nonce}.${mac.slice(0, -1)}${mac.endsWith('A') ? 'B' : 'A'}`)).toBe(false);
    for (const junk of [undefined, '', '.', 'abc', `${exp}.`, `${exp}.${mac}`, `${cookie}.x`, 'the-token']) expect(signer.valid(junk)).toBe(false);
    expect(new SessionSigner('another-token', clock).valid(cookie)).toBe(false);
  });

  it('a logged-out session stays refused; others are untouched', () => {
    const signer = new SessionSigner('the-token', clock);
    // Two logins in the same second are two sessions.
    const a = signer.issue();
    const b = signer.issue();
    expect(b).not.toBe(a);
    signer.revoke(a);
    expect(signer.valid(a)).toBe(false);
    expect(signer.valid(b)).toBe(true);
  });

  it('reads one cookie among several', () => {
    expect(readCookies('a=1; jobctrl_session=12.n.ab-_; b=2', 'jobctrl_session')).toEqual(['12.n.ab-_']);
    expect(readCookies('xjobctrl_session=1', 'jobctrl_session')).toEqual([]);
    expect(readCookies(undefined, 'jobctrl_session')).toEqual([]);
  });

  it('reads every value of a cookie sent twice, in order (#39: a stray first one must not hide the session)', () => {
    expect(readCookies('jobctrl_session=bogus; a=1; jobctrl_session=12.n.ab-_', 'jobctrl_session')).toEqual(['bogus', '12.n.ab-_']);
  });
});

describe('request rules', () => {
  it('JSON depth: counts nesting outside strings, stops past the bound', () => {
    const nested = (n: number) => Buffer.from(`${'['.repeat(n)}${']'.repeat(n)}`);
    expect(jsonDepthExceeds(nested(32), 32)).toBe(false);
    expect(jsonDepthExceeds(nested(33), 32)).toBe(true);
    expect(jsonDepthExceeds(Buffer.from(JSON.stringify({ s: '[[[[[[[[[[', t: '\\"[[[[[[' })), 2)).toBe(false);
    expect(jsonDepthExceeds(Buffer.from('{"a":{"b":[{"c":1}]}}'), 3)).toBe(true);
  });

  it('after login, only a path on this site: no open redirect', () => {
    expect(safeNext('/jobs?stage=prepared')).toBe('/jobs?stage=prepared');
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'jobs', '', null, 7]) expect(safeNext(bad)).toBe('/');
  });

  it('after login, no control character or non-ASCII in the Location header (#39: /%0B/x was a 500)', () => {
    for (let c = 0; c < 0x20; c++) expect(safeNext(`/${String.fromCharCode(c)}/x`)).toBe('/');
    for (const bad of ['/\x7f', '/\u20ac', '/a b', '/\t/evil.example', '/x'.repeat(1001)]) expect(safeNext(bad)).toBe('/');
    expect(safeNext('/jobs/abc?q=a%20b&stage=prepared#top')).toBe('/jobs/abc?q=a%20b&stage=prepared#top');
  });

  it('JSON keys the ValidationPipe would drop are named by their path (#39)', () => {
    expect(reservedJsonKeys(JSON.parse('{"answers":{"q":"a","__proto__":"x","constructor":"y"},"items":[{"prototype":1}],"toString":"kept"}'))).toEqual([
      { field: 'answers.__proto__', value: 'x', rule: expect.stringContaining('"__proto__" is not accepted') },
      { field: 'answers.constructor', value: 'y', rule: expect.any(String) },
      { field: 'items.0.prototype', value: 1, rule: expect.any(String) },
    ]);
    for (const fine of [null, 'x', 3, [], { a: { b: [1, { c: 'd' }] } }]) expect(reservedJsonKeys(fine)).toEqual([]);
  });

  it('loopback names', () => {
    for (const h of ['localhost', '127.0.0.1', '127.1.2.3', '::1', '[::1]', '::ffff:127.0.0.1']) expect(isLoopbackName(h)).toBe(true);
    for (const h of ['0.0.0.0', '192.168.1.4', 'example.com', '::', 'localhost.evil.com', '128.0.0.1']) expect(isLoopbackName(h)).toBe(false);
  });

  it('start-up refusals name api_token_env and the variable, or the bind', () => {
    expect(apiTokenIssues({ host: '127.0.0.1' })).toEqual([]);
    expect(apiTokenIssues({ host: '0.0.0.0', tokenEnv: 'T', token: 'x' })).toEqual([]);
    const [unset] = apiTokenIssues({ host: '127.0.0.1', tokenEnv: 'JOBCTRL_API_TOKEN' });
    expect(unset).toMatchObject({ key: 'api_token_env', value: 'JOBCTRL_API_TOKEN' });
    expect(unset.rule).toContain('JOBCTRL_API_TOKEN is unset or empty');
    expect(apiTokenIssues({ host: '0.0.0.0' })).toEqual([expect.objectContaining({ key: 'api_host', rule: expect.stringContaining('api_token_env') })]);
  });
});
