import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { chromium } from 'playwright-core';
import request from 'supertest';
import { loadConfig } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { JobRepository } from '@jobctrl/shared/jobs';
import { seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { ApplicationRepository } from '@jobctrl/apply-launcher/application';
import { DEFAULT_LOGIN_RATE_LIMITS, LoginRateLimits, MAX_JSON_DEPTH } from '@jobctrl/shared/api-security';
import { createApi } from './bootstrap';

const temporalAddress = process.env['JOBCTRL_TEST_TEMPORAL_ADDRESS'];
if (!temporalAddress) {
  throw new Error('JOBCTRL_TEST_TEMPORAL_ADDRESS is not set: run `npm test` or `npx nx test api` (the jest globalSetup starts a Temporal dev server)');
}

const TOKEN = 'tok-3f9c1e7a5b2d4c6e8a0b1c2d3e4f5a6b';
const root = path.resolve(__dirname, '..', '..', '..');

/** An API on a throwaway config and a fake UI build, built in-process as main builds it. */
async function api(dir: string, settings: Record<string, unknown>, env: Record<string, string>, loginRateLimits?: LoginRateLimits): Promise<INestApplication> {
  const configPath = path.join(dir, 'config.json');
  fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0, ...settings }));
  const webDir = path.join(dir, 'web');
  fs.mkdirSync(path.join(webDir, 'assets'), { recursive: true });
  fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
  fs.writeFileSync(path.join(webDir, 'assets', 'index-abc.js'), 'console.log(1)');
  const app = await createApi(loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: temporalAddress as string, ...env } }), { logger: false, webDir, loginRateLimits });
  await app.init();
  return app;
}

const deepJson = (levels: number) => `${'{"a":'.repeat(levels - 1)}{}${'}'.repeat(levels - 1)}`;

describe('API security with api_token_env set', () => {
  let dir: string;
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-security-'));
    // These tests present a dozen wrong tokens from one address on purpose; the limit has its own describe.
    const unlimited = { ...DEFAULT_LOGIN_RATE_LIMITS, perAddress: 1000, overall: 1000 };
    app = await api(dir, { api_token_env: 'JOBCTRL_TEST_API_TOKEN' }, { JOBCTRL_TEST_API_TOKEN: TOKEN }, unlimited);
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('every route needs the token: missing or wrong → 401 in the API error shape; the right Bearer passes', async () => {
    for (const url of ['/v1/jobs', '/v1/settings', '/v1/events', '/v1/openapi.json', '/v1/docs', '/v1/pipeline/runs', '/v1/no-such-route', '/', '/jobs', '/assets/index-abc.js']) {
      const missing = await http().get(url).set('accept', 'application/json').expect(401);
      expect(missing.body).toEqual({ statusCode: 401, error: 'Unauthorized', message: expect.stringContaining('Bearer') });
      expect(missing.headers['www-authenticate']).toBe('Bearer realm="jobctrl"');
      const wrong = await http().get(url).set('authorization', `Bearer ${TOKEN}x`).expect(401);
      expect(wrong.body.message).toBe('wrong API token');
      await http().get(url).set('authorization', `Basic ${Buffer.from(`u:${TOKEN}`).toString('base64')}`).expect(401);
    }
    for (const url of ['/v1/jobs', '/v1/settings', '/v1/openapi.json', '/', '/assets/index-abc.js']) await http().get(url).set('authorization', `Bearer ${TOKEN}`).expect(200);
    await http().post('/v1/pipeline/runs').send({ stages: ['discover'] }).expect(401);
    // A valid cookie does not rescue a wrong Bearer: the caller meant the header.
    const cookie = await loginCookie();
    await http().get('/v1/jobs').set('cookie', cookie).set('authorization', 'Bearer nope').expect(401);
  });

  it('the event stream opens with the token and is refused without it', async () => {
    await http().get('/v1/events').set('accept', 'text/event-stream').expect(401);
    const server = app.getHttpServer();
    const { port } = server.address() ?? (await new Promise((r) => server.listen(0, '127.0.0.1', () => r(server.address()))));
    const ctrl = new AbortController();
    const res = await fetch(`http://127.0.0.1:${port}/v1/events`, { headers: { authorization: `Bearer ${TOKEN}` }, signal: ctrl.signal });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    ctrl.abort();
  });

  it('a token in the query string is refused, even the right one', async () => {
    for (const key of ['access_token', 'token', 'api_key']) {
      const res = await http().get(`/v1/jobs?${key}=${TOKEN}`).expect(401);
      expect(res.body.message).toContain('not accepted');
      await http().get(`/v1/jobs?${key}=${TOKEN}`).set('authorization', `Bearer ${TOKEN}`).expect(401);
    }
  });

  it('health stays open to loopback peers (the local supervisor) with no token', async () => {
    const res = await http().get('/v1/health').expect(200);
    expect(res.body.api.status).toBe('up');
  });

  async function loginCookie(): Promise<string> {
    const res = await http().post('/v1/auth/login').send({ token: TOKEN }).expect(204);
    return (res.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  }

  it('login sets an HttpOnly, SameSite=Strict, Path=/ cookie (no token in it) that opens the API and the UI; logout ends it', async () => {
    await http().post('/v1/auth/login').send({ token: 'nope' }).expect(401);
    const res = await http().post('/v1/auth/login').send({ token: TOKEN }).expect(204);
    const setCookie = (res.headers['set-cookie'] as unknown as string[])[0];
    const attrs = setCookie.split(';').map((s) => s.trim());
    expect(attrs).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/']));
    expect(attrs.some((a) => a.startsWith('Max-Age='))).toBe(true);
    expect(setCookie).not.toContain(TOKEN);
    const cookie = attrs[0];
    for (const url of ['/v1/jobs', '/', '/v1/openapi.json']) await http().get(url).set('cookie', cookie).expect(200);
    await http().get('/v1/jobs').set('cookie', `${cookie}x`).expect(401);

    const out = await http().post('/v1/auth/logout').set('cookie', cookie).expect(204);
    expect((out.headers['set-cookie'] as unknown as string[])[0]).toContain('Max-Age=0');
    await http().get('/v1/jobs').set('cookie', cookie).expect(401);
  });

  it('the login page: a browser is sent there from the UI, the form logs in and sends it back; a wrong token shows the page again', async () => {
    const nav = await http().get('/jobs?stage=prepared').set('accept', 'text/html').expect(303);
    expect(nav.headers['location']).toBe(`/login?next=${encodeURIComponent('/jobs?stage=prepared')}`);
    const page = await http().get(nav.headers['location']).expect(200);
    expect(page.text).toContain('action="/v1/auth/login"');
    expect(page.text).toContain('value="/jobs?stage=prepared"');
    expect(page.text).not.toContain('<script');

    const wrong = await http().post('/v1/auth/login').type('form').send({ token: 'nope', next: '/jobs' }).expect(303);
    expect(wrong.headers['location']).toBe('/login?failed=1&next=%2Fjobs');
    expect(wrong.headers['set-cookie']).toBeUndefined();
    expect((await http().get(wrong.headers['location']).expect(200)).text).toContain('not the API token');

    const ok = await http().post('/v1/auth/login').type('form').send({ token: TOKEN, next: '//evil.example/' }).expect(303);
    expect(ok.headers['location']).toBe('/');
    await http().get('/jobs').set('cookie', (ok.headers['set-cookie'] as unknown as string[])[0].split(';')[0]).expect(200);
  });

  it('in Chromium: the UI sends a visitor to the login page, a wrong token is said so, the right one lands back with a cookie script cannot read', async () => {
    const server = app.getHttpServer();
    const { port } = server.address() ?? (await new Promise((r) => server.listen(0, '127.0.0.1', () => r(server.address()))));
    const base = `http://127.0.0.1:${port}`;
    const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${base}/jobs`);
      expect(page.url()).toBe(`${base}/login?next=%2Fjobs`);
      await page.fill('#token', 'nope');
      await Promise.all([page.waitForURL(/failed=1/), page.click('button[type=submit]')]);
      expect(await page.locator('[role=alert]').innerText()).toContain('not the API token');
      // Chromium posts this same-origin form with Origin: null (Referrer-Policy: no-referrer): it must still pass.
      await page.fill('#token', TOKEN);
      await Promise.all([page.waitForURL(`${base}/jobs`), page.click('button[type=submit]')]);
      expect(await page.locator('#root').count()).toBe(1);
      const [cookie] = await page.context().cookies();
      expect(cookie).toMatchObject({ name: 'jobctrl_session', httpOnly: true, sameSite: 'Strict', path: '/' });
      expect(await page.evaluate('document.cookie')).toBe('');
    } finally {
      await browser.close();
    }
  });

  it('a cross-site form post cannot log in (login CSRF)', async () => {
    await http().post('/v1/auth/login').set('origin', 'https://evil.example').type('form').send({ token: TOKEN }).expect(403);
  });

  it('one path grammar for the token check and the router (#39): backslashes, dot segments and doubled slashes are refused 400 before either reads them', async () => {
    const port = await listeningPort(app);
    // Sent raw (supertest would normalise some): `/v1/jobs/..\health` read as /v1/health by the token
    // check (open to loopback peers) reached the jobs controller; `//evil/v1/health` served the UI.
    await expectPathTricksRefused(port);
    expect((await from('127.0.0.1', port, 'POST', '/v1/jobs/x/..%5C..%5C..%5Cauth/login', { body: { token: 'nope' } })).status).toBe(400);
    // Normal paths are untouched: health open to loopback, the rest behind the token, dots inside a segment are no dot segment.
    expect((await from('127.0.0.1', port, 'GET', '/v1/health')).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs')).status).toBe(401);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs/..x')).status).toBe(401);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs?offset=0', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs/a..b', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(404);
  });

  it('the login form sends nobody off the site and never answers 500 on its `next` (#39): control characters, other hosts and backslashes fall back to /', async () => {
    const controls = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\x7f'];
    const bad = [...controls.map((c) => `/${c}/x`), '//evil.example/', '/\\evil.example', '%2F%2Fevil.example', '/\u20ac', 'https://evil.example/', ' /x'];
    for (const next of bad) {
      const ok = await http().post('/v1/auth/login').type('form').send({ token: TOKEN, next });
      expect({ next, status: ok.status, location: ok.headers['location'] }).toEqual({ next, status: 303, location: '/' });
      expect((ok.headers['set-cookie'] as unknown as string[])[0]).toContain('jobctrl_session=');
      const wrong = await http().post('/v1/auth/login').type('form').send({ token: 'nope', next });
      expect({ next, status: wrong.status, location: wrong.headers['location'] }).toEqual({ next, status: 303, location: '/login?failed=1&next=%2F' });
      const page = await http().get(`/login?next=${encodeURIComponent(next)}`).expect(200);
      expect(page.text).toContain('name="next" value="/"');
    }
    // A plain path still comes back, query and all, with its cookie (a percent-encoded %0B is just text in a path).
    expect((await http().post('/v1/auth/login').type('form').send({ token: TOKEN, next: '/%0B/x' }).expect(303)).headers['location']).toBe('/%0B/x');
    const ok = await http().post('/v1/auth/login').type('form').send({ token: TOKEN, next: '/jobs?stage=prepared&q=a%20b' }).expect(303);
    expect(ok.headers['location']).toBe('/jobs?stage=prepared&q=a%20b');
    await http().get('/jobs').set('cookie', (ok.headers['set-cookie'] as unknown as string[])[0].split(';')[0]).expect(200);
  });

  it('a login body over 8 kB is answered 413 in the API error shape, form or JSON, on a connection that is not reset (#39)', async () => {
    const port = await listeningPort(app);
    for (const size of [9 * 1024, 1024 * 1024]) {
      const form = await from('127.0.0.1', port, 'POST', '/v1/auth/login', { form: { token: 'x'.repeat(size), next: '/' }, headers: { accept: 'text/html' } });
      expect(form.status).toBe(413);
      expect(JSON.parse(form.body)).toEqual({ statusCode: 413, error: 'Payload Too Large', message: expect.stringContaining('8192 bytes') });
      const json = await from('127.0.0.1', port, 'POST', '/v1/auth/login', { body: { token: 'x'.repeat(size) } });
      expect(json.status).toBe(413);
      expect(JSON.parse(json.body)).toEqual({ statusCode: 413, error: 'Payload Too Large', message: expect.stringContaining('8192 bytes') });
    }
    // Just under the bound it is an ordinary login.
    expect((await from('127.0.0.1', port, 'POST', '/v1/auth/login', { body: { token: TOKEN, pad: 'x'.repeat(7 * 1024) } })).status).toBe(204);
  });

  it('two session cookies in one Cookie header: any valid, unrevoked one logs in (#39)', async () => {
    const valid = (await loginCookie()).split('=')[1];
    const other = (await loginCookie()).split('=')[1];
    const forged = `${Math.floor(Date.now() / 1000) + 3600}.AAAAAAAAAAAAAAAA.forged`;
    for (const header of [`jobctrl_session=bogus; jobctrl_session=${valid}`, `jobctrl_session=${forged}; a=1; jobctrl_session=${valid}`, `jobctrl_session=${valid}; jobctrl_session=bogus`]) {
      await http().get('/v1/jobs').set('cookie', header).expect(200);
    }
    await http().get('/v1/jobs').set('cookie', 'jobctrl_session=bogus; jobctrl_session=also-bogus').expect(401);
    // Logout ends every session it is shown; a session it was not shown still works.
    await http().post('/v1/auth/logout').set('cookie', `jobctrl_session=bogus; jobctrl_session=${valid}`).expect(204);
    await http().get('/v1/jobs').set('cookie', `jobctrl_session=${valid}`).expect(401);
    await http().get('/v1/jobs').set('cookie', `jobctrl_session=${valid}; jobctrl_session=${other}`).expect(200);
  });
});

/**
 * Request targets the token check (WHATWG URL: backslash = slash, dot segments resolved, `//host`
 * an authority) and express's router (the raw path) used to read differently (#39).
 */
const PATH_TRICKS = [
  '/v1/jobs/..\\health',
  '/v1/jobs/..%5Chealth',
  '/v1/jobs/..%5chealth',
  '/v1/jobs/%2e%2e/health',
  '/v1/jobs/.%2E/health',
  '/v1/jobs/%2E./health',
  '/v1/jobs/../health',
  '/v1/./health',
  '/v1/health/.',
  '/v1/jobs/%2e',
  '//evil/v1/health',
  '//evil.example/',
  '/v1//jobs',
  '/v1/jobs//',
  '/\\evil/v1/health',
  '/v1/health#/../jobs',
  'http://evil.example/v1/health',
];

/** Each of PATH_TRICKS, sent raw (node's http.request leaves the path as it is), is a 400 in the API error shape. */
async function expectPathTricksRefused(port: number): Promise<void> {
  for (const target of PATH_TRICKS) {
    const res = await from('127.0.0.1', port, 'GET', target);
    expect({ target, status: res.status }).toEqual({ target, status: 400 });
    expect(JSON.parse(res.body)).toEqual({ statusCode: 400, error: 'Bad Request', message: expect.stringContaining('path') });
  }
}

/** The server's port, listening on loopback first when no test has yet (supertest alone never listens). */
async function listeningPort(app: INestApplication): Promise<number> {
  const server = app.getHttpServer() as http.Server;
  if (!server.listening) await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** One request from a chosen loopback source address (127.0.0.0/8 is all this machine): an attacker and the user told apart. */
function from(source: string, port: number, method: string, url: string, opts: { body?: unknown; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  const payload = opts.form ? new URLSearchParams(opts.form).toString() : opts.body === undefined ? undefined : JSON.stringify(opts.body);
  const type = opts.form ? 'application/x-www-form-urlencoded' : 'application/json';
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, localAddress: source, method, path: url, headers: { accept: 'application/json', ...(payload ? { 'content-type': type } : {}), ...opts.headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('wrong API tokens are rate limited (per address, and overall)', () => {
  // The real limits but a 3 s window, so "after the window" is a short wait.
  const limits: LoginRateLimits = { ...DEFAULT_LOGIN_RATE_LIMITS, windowMs: 3_000 };
  const dirs: string[] = [];
  const apps: INestApplication[] = [];
  const bearer = { authorization: `Bearer ${TOKEN}` };

  async function listening(): Promise<number> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-ratelimit-'));
    dirs.push(dir);
    const app = await api(dir, { api_token_env: 'JOBCTRL_TEST_API_TOKEN' }, { JOBCTRL_TEST_API_TOKEN: TOKEN }, limits);
    apps.push(app);
    await app.listen(0, '127.0.0.1');
    return (app.getHttpServer().address() as { port: number }).port;
  }

  afterAll(async () => {
    for (const app of apps) await app.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a brute force from one address gets 429 with Retry-After (the right token too, uncompared), while the user’s valid Bearer and cookie pass; the right token works after the window', async () => {
    const port = await listening();
    const attacker = '127.0.0.2';
    const cookie = (await from('127.0.0.1', port, 'POST', '/v1/auth/login', { body: { token: TOKEN } })).headers['set-cookie']?.[0].split(';')[0] as string;
    for (let i = 0; i < 5; i++) expect((await from(attacker, port, 'POST', '/v1/auth/login', { body: { token: `guess-${i}` } })).status).toBe(401);

    const limited = await from(attacker, port, 'POST', '/v1/auth/login', { body: { token: 'guess-5' } });
    expect(limited.status).toBe(429);
    expect(JSON.parse(limited.body)).toEqual({ statusCode: 429, error: 'Too Many Requests', message: expect.stringContaining('from this address') });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    // Neither the right token at the login form nor as a Bearer is compared while the address is limited:
    // a 429 that still let a correct guess through would only hide the answer.
    expect((await from(attacker, port, 'POST', '/v1/auth/login', { body: { token: TOKEN } })).status).toBe(429);
    expect((await from(attacker, port, 'GET', '/v1/jobs', { headers: bearer })).status).toBe(429);
    const form = await from(attacker, port, 'POST', '/v1/auth/login', { form: { token: TOKEN, next: '/jobs' } });
    expect(form.status).toBe(429);
    expect(form.headers['retry-after']).toBeDefined();
    expect(form.body).toContain('Too many wrong tokens');
    expect(form.body).toContain('value="/jobs"');

    // The user, meanwhile: Bearer and cookie unaffected.
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs', { headers: bearer })).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs', { headers: { cookie } })).status).toBe(200);

    await new Promise((r) => setTimeout(r, retryAfter * 1000 + 200));
    const after = await from(attacker, port, 'POST', '/v1/auth/login', { body: { token: TOKEN } });
    expect(after.status).toBe(204);
    expect(after.headers['set-cookie']?.[0]).toContain('jobctrl_session=');
  });

  it('wrong Bearer tokens count as guesses too', async () => {
    const port = await listening();
    for (let i = 0; i < 5; i++) expect((await from('127.0.0.3', port, 'GET', '/v1/jobs', { headers: { authorization: `Bearer guess-${i}` } })).status).toBe(401);
    const limited = await from('127.0.0.3', port, 'GET', '/v1/jobs', { headers: { authorization: 'Bearer guess-5' } });
    expect(limited.status).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  it('rotating addresses: 30 wrong tokens overall close the login form to every address, while a valid Bearer and cookie still pass', async () => {
    const port = await listening();
    const cookie = (await from('127.0.0.1', port, 'POST', '/v1/auth/login', { body: { token: TOKEN } })).headers['set-cookie']?.[0].split(';')[0] as string;
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await from(`127.0.1.${1 + Math.floor(i / 5)}`, port, 'POST', '/v1/auth/login', { body: { token: `guess-${i}` } })).status);
    // The 30th wrong token closes the budget: it is answered 429 already.
    expect(statuses).toEqual([...Array(29).fill(401), 429]);

    const fresh = await from('127.0.2.1', port, 'POST', '/v1/auth/login', { body: { token: TOKEN } });
    expect(fresh.status).toBe(429);
    expect(JSON.parse(fresh.body).message).toContain('all addresses');
    expect(Number(fresh.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect((await from('127.0.2.2', port, 'GET', '/v1/jobs', { headers: { authorization: 'Bearer guess-x' } })).status).toBe(429);

    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs', { headers: bearer })).status).toBe(200);
    expect((await from('127.0.2.3', port, 'GET', '/v1/jobs', { headers: bearer })).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/v1/jobs', { headers: { cookie } })).status).toBe(200);
  });
});

describe('a logout survives an API restart', () => {
  let dir: string;
  let app: INestApplication | undefined;

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('login, logout, restart on the same SQLite file: the logged-out cookie is refused, another session still works', async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-logout-'));
    const start = () => api(dir, { api_token_env: 'JOBCTRL_TEST_API_TOKEN' }, { JOBCTRL_TEST_API_TOKEN: TOKEN });
    app = await start();
    const login = async () => ((await request(app?.getHttpServer()).post('/v1/auth/login').send({ token: TOKEN }).expect(204)).headers['set-cookie'] as unknown as string[])[0].split(';')[0];
    const out = await login();
    const kept = await login();
    await request(app.getHttpServer()).get('/v1/jobs').set('cookie', out).expect(200);
    await request(app.getHttpServer()).post('/v1/auth/logout').set('cookie', out).expect(204);
    await request(app.getHttpServer()).get('/v1/jobs').set('cookie', out).expect(401);

    await app.close();
    app = await start();
    await request(app.getHttpServer()).get('/v1/jobs').set('cookie', out).expect(401);
    await request(app.getHttpServer()).get('/v1/jobs').set('cookie', kept).expect(200);
  });
});

describe('API security on the default loopback bind (no token)', () => {
  let dir: string;
  let app: INestApplication;
  const http = () => request(app.getHttpServer());

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-security-'));
    app = await api(dir, {}, {});
  });

  afterAll(async () => {
    await app?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('CORS is off: no Access-Control-Allow-Origin on any answer, a preflight is refused', async () => {
    for (const url of ['/v1/health', '/v1/jobs', '/', '/login', '/v1/openapi.json']) {
      const res = await http().get(url).set('origin', 'https://evil.example');
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    const preflight = await http().options('/v1/pipeline/runs').set('origin', 'https://evil.example').set('access-control-request-method', 'POST').set('access-control-request-headers', 'content-type');
    expect(preflight.status).toBe(403);
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
    expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('a hostile page cannot post to the loopback API (a simple cross-site request needs no preflight), nor reach it by DNS rebinding', async () => {
    const cross = await http().post('/v1/pipeline/runs').set('origin', 'https://evil.example').set('content-type', 'text/plain').send('{"stages":["discover"]}').expect(403);
    expect(cross.body).toMatchObject({ statusCode: 403, message: expect.stringContaining('evil.example') });
    await http().post('/v1/pipeline/runs').set('sec-fetch-site', 'cross-site').send({ stages: ['discover'] }).expect(403);
    await http().post('/v1/pipeline/runs').set('origin', 'null').send({ stages: ['discover'] }).expect(403);
    await http().post('/v1/pipeline/runs').set('origin', 'http://127.0.0.1:1').set('sec-fetch-site', 'cross-site').send({ stages: ['discover'] }).expect(403);
    // Chromium's same-origin form post under Referrer-Policy: no-referrer (the login page): Origin null, Fetch Metadata same-origin.
    await http().patch('/v1/settings').set('origin', 'null').set('sec-fetch-site', 'same-origin').send({ no_such_key: 1 }).expect(400);
    const rebound = await http().get('/v1/settings').set('host', 'rebind.evil.example').expect(403);
    expect(rebound.body.message).toContain('loopback');
    // The UI's own requests (same origin) and `nx serve web` (another loopback port) still pass the origin check.
    const port = 3999;
    for (const origin of [`http://127.0.0.1:${port}`, 'http://localhost:4200']) {
      const res = await http().patch('/v1/settings').set('host', `127.0.0.1:${port}`).set('origin', origin).send({ no_such_key: 1 });
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ field: 'no_such_key' })]);
    }
    // Without a token the login routes are a no-op, not an error.
    await http().get('/login').expect(303);
  });

  it('security headers (helmet) on API, UI, login and docs answers; the CSP lets the UI load its own files', async () => {
    for (const url of ['/v1/health', '/v1/jobs', '/v1/no-such-route', '/', '/jobs', '/assets/index-abc.js', '/login', '/v1/docs', '/v1/openapi.json']) {
      const res = await http().get(url);
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
      expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['x-powered-by']).toBeUndefined();
    }
  });

  it(`JSON nested deeper than ${MAX_JSON_DEPTH} levels is a 400 naming the limit; the body size cap stays`, async () => {
    const deep = await http().patch('/v1/settings').set('content-type', 'application/json').send(deepJson(MAX_JSON_DEPTH + 1)).expect(400);
    expect(deep.body).toMatchObject({ statusCode: 400, error: 'Bad Request', errors: [{ field: '(body)', rule: expect.stringContaining(`at most ${MAX_JSON_DEPTH} levels`) }] });
    // At the bound the body is parsed and judged by the route's own rules (an unknown key here).
    const atBound = await http().patch('/v1/settings').set('content-type', 'application/json').send(deepJson(MAX_JSON_DEPTH)).expect(400);
    expect(JSON.stringify(atBound.body)).not.toContain('levels');
    // 100 kB of brackets: refused by depth before any parse.
    await http().post('/v1/pipeline/runs').set('content-type', 'application/json').send('['.repeat(90_000)).expect(400);
    await http().post('/v1/pipeline/runs').set('content-type', 'application/json').send(JSON.stringify({ stages: ['discover'], pad: 'x'.repeat(200_000) })).expect(413);
  });

  it('one path grammar without a token too (#39): the same tricks are refused 400, normal paths pass', async () => {
    const port = await listeningPort(app);
    await expectPathTricksRefused(port);
    expect((await from('127.0.0.1', port, 'GET', '/v1/health')).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/jobs/abc', { headers: { accept: 'text/html' } })).status).toBe(200);
    expect((await from('127.0.0.1', port, 'GET', '/assets/index-abc.js')).status).toBe(200);
  });

  it('paging bounds: a huge offset or limit is a 400 naming it, not a 500 (#39)', async () => {
    const cases: Array<[string, string]> = [
      ['/v1/jobs?offset=99999999999999999999999', 'offset'],
      ['/v1/jobs?offset=9007199254740992', 'offset'],
      ['/v1/jobs?offset=1e400', 'offset'],
      ['/v1/jobs?limit=99999999999999999999999', 'limit'],
      ['/v1/jobs?limit=1e400', 'limit'],
      ['/v1/pipeline/runs?offset=99999999999999999999999', 'offset'],
    ];
    for (const [url, field] of cases) {
      const res = await http().get(url);
      expect({ url, status: res.status }).toEqual({ url, status: 400 });
      expect([...new Set(res.body.errors.map((e: { field: string }) => e.field))]).toEqual([field]);
    }
    // The largest offset SQLite is given is still an integer to it: an empty page, not an error.
    const last = await http().get(`/v1/jobs?offset=${Number.MAX_SAFE_INTEGER}`).expect(200);
    expect(last.body).toMatchObject({ items: [], offset: Number.MAX_SAFE_INTEGER });
    await http().get(`/v1/pipeline/runs?offset=${Number.MAX_SAFE_INTEGER}`).expect(200);
  });

  it('answers under keys JavaScript objects treat specially are kept, or refused by name, never dropped (#39)', async () => {
    const config = loadConfig({ path: path.join(dir, 'config.json'), env: { TEMPORAL_ADDRESS: temporalAddress as string } });
    const uow = new UnitOfWorkFactory({ databasePath: config.databasePath, entities: [] });
    const key = 'j_proto_keys';
    await seedEnrichedJob(new JobRepository(uow), { jobKey: key, title: 'Engineer', company: 'Acme', description: 'Build things.' });
    const stored = async () => Object.entries(await new ApplicationRepository(uow).answersOf(key)).sort();

    // Object.prototype's method names are ordinary question keys: saved, answered back, read back.
    const kept = { toString: 'a', valueOf: 'b', hasOwnProperty: 'c', isPrototypeOf: 'd', __defineGetter__: 'e', 'How did you hear about us?': 'A friend' };
    const saved = await http().put(`/v1/jobs/${key}/answers`).send({ answers: kept }).expect(200);
    expect(Object.entries(saved.body.answers).sort()).toEqual(Object.entries(kept).sort());
    expect(await stored()).toEqual(Object.entries(kept).sort());

    // __proto__, constructor and prototype are refused by name (written raw: JSON.parse makes "__proto__" an own key), and nothing is written.
    for (const name of ['constructor', 'prototype', '__proto__']) {
      const res = await http().put(`/v1/jobs/${key}/answers`).set('content-type', 'application/json').send(`{"answers":{"q":"kept?","${name}":"x"}}`);
      expect({ name, status: res.status }).toEqual({ name, status: 400 });
      expect(res.body.errors).toEqual([expect.objectContaining({ field: `answers.${name}` })]);
      expect(await stored()).toEqual(Object.entries(kept).sort());
    }
    // Anywhere in any body, not only answers.
    const nested = await http().post('/v1/sources').set('content-type', 'application/json').send('{"kind":"greenhouse","name":"Acme","config":{"board_token":"acme","constructor":"x"}}').expect(400);
    expect(nested.body.errors).toEqual([expect.objectContaining({ field: 'config.constructor' })]);
    await http().get('/v1/sources').expect(200, []);
  });
});

describe('API start-up refusals (main, spawned)', () => {
  /** Runs apps/api/src/main.ts as `nx serve api` does; resolves its exit code and stderr. */
  function runMain(settings: Record<string, unknown>, env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-security-main-'));
    const configPath = path.join(dir, 'config.json');
    fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: 0, ...settings }));
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env, JOBCTRL_CONFIG: configPath, TS_NODE_PROJECT: 'tsconfig.base.json', TEMPORAL_ADDRESS: temporalAddress };
    delete childEnv['JOBCTRL_TEST_API_TOKEN'];
    for (const [k, v] of Object.entries(env)) childEnv[k] = v;
    const child = spawn(process.execPath, ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', 'apps/api/src/main.ts'], { cwd: root, env: childEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.resume();
    return new Promise((resolve) =>
      child.on('exit', (code) => {
        fs.rmSync(dir, { recursive: true, force: true });
        resolve({ code, stderr });
      }),
    );
  }

  it('api_token_env set but its variable unset or empty, or a non-loopback bind without a token: exit 78 naming the key (and the variable)', async () => {
    // In parallel: each start compiles the API's sources through ts-node first.
    const [unset, empty, open] = await Promise.all([
      runMain({ api_token_env: 'JOBCTRL_TEST_API_TOKEN' }, {}),
      runMain({ api_token_env: 'JOBCTRL_TEST_API_TOKEN' }, { JOBCTRL_TEST_API_TOKEN: '' }),
      runMain({ api_host: '0.0.0.0' }, {}),
    ]);
    for (const { code, stderr } of [unset, empty]) {
      expect(code).toBe(78);
      expect(stderr).toContain('invalid configuration, not starting');
      expect(stderr).toContain('"api_token_env" = "JOBCTRL_TEST_API_TOKEN"');
      expect(stderr).toContain('JOBCTRL_TEST_API_TOKEN is unset or empty');
    }
    expect(open.code).toBe(78);
    expect(open.stderr).toContain('"api_token_env" = undefined: is required when api_host is not a loopback address');
  }, 180_000);
});
