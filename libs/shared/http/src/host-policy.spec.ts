import { HostPolicyHttpClient, type HostPolicyOptions } from './host-policy.http-client';
import {
  HttpStatusError,
  InvalidUrlError,
  MalformedResponseError,
  NetworkError,
  RequestAbortedError,
  RequestTimeoutError,
  ResponseTooLargeError,
  RobotsBlockedError,
  TooManyRedirectsError,
} from './http.errors';
import { FakeClock } from './testing/fake-clock.testing';
import { TestServer, waitFor } from './testing/test-server.testing';

/** The test servers listen on loopback, which the crawler refuses unless allowed_private_hosts lists it. */
const LOOPBACK = ['127.0.0.1', 'localhost'];

const A = '127.0.0.1';
const B = 'localhost';

function json(body: unknown, status = 200, headers: Record<string, string> = {}) {
  return (_req: unknown, res: import('node:http').ServerResponse): void => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

function status(code: number, headers: Record<string, string> = {}) {
  return (_req: unknown, res: import('node:http').ServerResponse): void => {
    res.writeHead(code, headers);
    res.end(`status ${code}`);
  };
}

/** Answers each request with the next entry of `codes`, the last one repeating. */
function sequence(codes: number[], okBody: unknown = { ok: true }, headers: Record<string, string> = {}) {
  let call = 0;
  return (req: unknown, res: import('node:http').ServerResponse): void => {
    const code = codes[Math.min(call, codes.length - 1)];
    call += 1;
    if (code === 200) json(okBody)(req, res);
    else status(code, headers)(req, res);
  };
}

function robots(text: string) {
  return (_req: unknown, res: import('node:http').ServerResponse): void => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(text);
  };
}

/** Real-clock defaults small enough that retries and spacing never dominate a spec's run. */
function fastOptions(overrides: HostPolicyOptions = {}): HostPolicyOptions {
  return { allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 1, backoffMaxMs: 4, random: () => 0.5, ...overrides };
}

async function settle<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  try {
    return { value: await promise };
  } catch (error) {
    return { error };
  }
}

describe('HostPolicyHttpClient', () => {
  let server: TestServer;
  let clock: FakeClock | undefined;

  async function startServer(fake = false): Promise<void> {
    clock = fake ? new FakeClock() : undefined;
    const now = clock ? () => (clock as FakeClock).now() : undefined;
    server = new TestServer(now);
    await server.start();
  }

  afterEach(async () => {
    await server?.stop();
  });

  describe('per-host concurrency and spacing', () => {
    it('keeps one request in flight per host while two hosts proceed in parallel', async () => {
      await startServer();
      server.holdRoute('/slow/1');
      server.holdRoute('/slow/2');
      const client = new HostPolicyHttpClient(fastOptions());

      const results = Promise.all([
        client.getText(server.url('/slow/1', A)),
        client.getText(server.url('/slow/2', A)),
        client.getText(server.url('/slow/1', B)),
        client.getText(server.url('/slow/2', B)),
      ]);

      for (const round of [1, 2]) {
        await waitFor(() => server.heldHits().length === 2, `round ${round}: one held request per host`);
        expect(server.heldHits().map((hit) => hit.host).sort()).toEqual([A, B]);
        expect(server.heldHits().map((hit) => hit.path)).toEqual([`/slow/${round}`, `/slow/${round}`]);
        server.releaseHeld();
      }

      expect(await results).toEqual(['released', 'released', 'released', 'released']);
      expect(server.peakByHost.get(A)).toBe(1);
      expect(server.peakByHost.get(B)).toBe(1);
      expect(server.peakTotal).toBe(2);
      const stats = client.stats();
      expect(stats[`${A}:${new URL(server.url('/')).port}`]).toMatchObject({ peakInFlight: 1, inFlight: 0, queued: 0 });
      expect(stats[`${B}:${new URL(server.url('/')).port}`]).toMatchObject({ peakInFlight: 1, inFlight: 0, queued: 0 });
    });

    it('admits up to maxInFlightPerHost requests to one host at once', async () => {
      await startServer();
      for (const n of [1, 2, 3]) server.holdRoute(`/slow/${n}`);
      const client = new HostPolicyHttpClient(fastOptions({ maxInFlightPerHost: 2 }));

      const results = Promise.all([1, 2, 3].map((n) => client.getText(server.url(`/slow/${n}`))));
      await waitFor(() => server.heldHits().length === 2, 'two held');
      const [stats] = Object.values(client.stats());
      expect(stats).toMatchObject({ inFlight: 2, queued: 1 });

      server.releaseHeld();
      await waitFor(() => server.heldHits().length === 1, 'third held');
      server.releaseHeld();
      await results;
      expect(server.peakByHost.get(A)).toBe(2);
      expect(server.hitsFor('/slow/3')).toHaveLength(1);
    });

    it('spaces request starts to one host by minSpacingMs, in call order, robots.txt included', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      const t0 = fake.now();
      for (const path of ['/a', '/b', '/c']) server.route(path, json({ path }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 1000, clock: fake });

      const results = Promise.all(['/a', '/b', '/c'].map((path) => client.getJson(server.url(path))));
      await waitFor(() => client.stats()[Object.keys(client.stats())[0]]?.queued === 3, 'three queued behind the robots fetch');
      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt']);

      for (const expected of ['/a', '/b', '/c']) {
        fake.advance(999);
        // The next start is one millisecond away: nothing may have reached the server yet.
        await new Promise((resolve) => setImmediate(resolve));
        expect(server.hits.map((hit) => hit.path)).not.toContain(expected);
        fake.advance(1);
        await waitFor(() => server.hitsFor(expected).length === 1, `${expected} arrives`);
      }

      expect(await results).toEqual([{ path: '/a' }, { path: '/b' }, { path: '/c' }]);
      expect(server.hits.map((hit) => [hit.path, hit.at - t0])).toEqual([
        ['/robots.txt', 0],
        ['/a', 1000],
        ['/b', 2000],
        ['/c', 3000],
      ]);
    });

    it('spaces each host on its own: a second host starts without waiting for the first', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/x', json({ ok: true }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 60_000, clock: fake });

      const first = client.getJson(server.url('/x', A));
      const second = client.getJson(server.url('/x', B));
      // Both robots fetches are done and each host's request waits only for its own spacing.
      await waitFor(() => Object.values(client.stats()).filter((host) => host.queued === 1 && host.inFlight === 0).length === 2, 'both queued');
      expect(server.hits.map((hit) => [hit.path, hit.at === fake.now()])).toEqual([
        ['/robots.txt', true],
        ['/robots.txt', true],
      ]);

      fake.advance(60_000);
      await expect(Promise.all([first, second])).resolves.toEqual([{ ok: true }, { ok: true }]);
      expect(server.hitsFor('/x').map((hit) => hit.host).sort()).toEqual([A, B]);
    });
  });

  describe('429/503 cooldowns', () => {
    it('honours Retry-After in seconds: the retry starts only once the cooldown has passed', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/jobs', sequence([429, 200], { jobs: 1 }, { 'retry-after': '30' }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 0, clock: fake });

      const result = client.getJson(server.url('/jobs'));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 1, 'retry queued behind the cooldown');
      const first = server.hitsFor('/jobs')[0];
      expect(Object.values(client.stats())[0].cooldownUntil).toBe(first.at + 30_000);

      fake.advance(first.at + 30_000 - 1 - fake.now());
      await new Promise((resolve) => setImmediate(resolve));
      expect(server.hitsFor('/jobs')).toHaveLength(1);

      fake.advance(1);
      await expect(result).resolves.toEqual({ jobs: 1 });
      const hits = server.hitsFor('/jobs');
      expect(hits).toHaveLength(2);
      expect(hits[1].at - hits[0].at).toBe(30_000);
    });

    it('honours Retry-After as an HTTP date and holds back every other caller of the host', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      const until = fake.now() + 45_000;
      server.route('/busy', sequence([503, 200], { ok: 'busy' }, { 'retry-after': new Date(until).toUTCString() }));
      server.route('/other', json({ ok: 'other' }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 0, clock: fake });

      const busy = client.getJson(server.url('/busy'));
      await waitFor(() => Object.values(client.stats())[0]?.cooldownUntil === until, 'cooldown from the date');
      const other = client.getJson(server.url('/other'));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 2, 'both callers wait');
      expect(server.hitsFor('/other')).toHaveLength(0);

      fake.advance(until - fake.now());
      await expect(Promise.all([busy, other])).resolves.toEqual([{ ok: 'busy' }, { ok: 'other' }]);
      expect(server.hitsFor('/other')[0].at).toBe(until);
      expect(server.hitsFor('/busy')[1].at).toBe(until);
    });

    it('caps a huge Retry-After at maxCooldownMs', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/jobs', sequence([429, 200], { ok: true }, { 'retry-after': '86400' }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 0, maxCooldownMs: 60_000, clock: fake });

      const result = client.getJson(server.url('/jobs'));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 1, 'retry queued');
      expect(Object.values(client.stats())[0].cooldownUntil).toBe(server.hitsFor('/jobs')[0].at + 60_000);
      fake.advance(60_000);
      await expect(result).resolves.toEqual({ ok: true });
    });

    it('uses defaultCooldownMs when a 429 has no Retry-After', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/jobs', sequence([429, 200]));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 0, defaultCooldownMs: 5000, clock: fake });

      const result = client.getJson(server.url('/jobs'));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 1, 'retry queued');
      expect(Object.values(client.stats())[0].cooldownUntil).toBe(server.hitsFor('/jobs')[0].at + 5000);
      fake.advance(5000);
      await expect(result).resolves.toEqual({ ok: true });
      expect(Object.values(client.stats())[0].cooldownUntil).toBeNull();
    });

    it('gives up after maxAttempts with a retryable HttpStatusError carrying retryAfterMs', async () => {
      await startServer();
      server.route('/jobs', status(429, { 'retry-after': '0' }));
      const client = new HostPolicyHttpClient(fastOptions({ maxAttempts: 3 }));

      const { error } = await settle(client.getJson(server.url('/jobs')));
      expect(error).toBeInstanceOf(HttpStatusError);
      expect(error).toMatchObject({ status: 429, retryAfterMs: 0, retryable: true, code: 'http_status', url: server.url('/jobs') });
      expect(server.hitsFor('/jobs')).toHaveLength(3);
    });
  });

  describe('retries and non-retryable answers', () => {
    it('retries 5xx with backoff until it succeeds', async () => {
      await startServer();
      server.route('/jobs', sequence([500, 502, 200], { jobs: ['x'] }));
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(server.url('/jobs'))).resolves.toEqual({ jobs: ['x'] });
      expect(server.hitsFor('/jobs')).toHaveLength(3);
    });

    it('stops retrying 5xx after maxAttempts and reports a retryable error', async () => {
      await startServer();
      server.route('/jobs', status(500));
      const client = new HostPolicyHttpClient(fastOptions({ maxAttempts: 3 }));

      const { error } = await settle(client.getJson(server.url('/jobs')));
      expect(error).toBeInstanceOf(HttpStatusError);
      expect(error).toMatchObject({ status: 500, retryable: true });
      expect(server.hitsFor('/jobs')).toHaveLength(3);
    });

    it.each([400, 401, 403, 404, 410])('does not retry %i', async (code) => {
      await startServer();
      server.route('/jobs', status(code));
      const client = new HostPolicyHttpClient(fastOptions());

      const { error } = await settle(client.getText(server.url('/jobs')));
      expect(error).toBeInstanceOf(HttpStatusError);
      expect(error).toMatchObject({ status: code, retryable: false, url: server.url('/jobs') });
      expect(server.hitsFor('/jobs')).toHaveLength(1);
    });

    it('retries a refused connection, then reports a retryable NetworkError', async () => {
      await startServer();
      const deadUrl = server.url('/jobs');
      await server.stop();
      server = new TestServer();
      await server.start();
      const client = new HostPolicyHttpClient(fastOptions({ respectRobots: false, maxAttempts: 2 }));

      const { error } = await settle(client.getJson(deadUrl));
      expect(error).toBeInstanceOf(NetworkError);
      expect(error).toMatchObject({ code: 'network_error', retryable: true, url: deadUrl });
      expect(Object.values(client.stats())[0].requests).toBe(2);
    });
  });

  describe('robots.txt', () => {
    it('blocks a disallowed URL without the request reaching the server', async () => {
      await startServer();
      server.route('/robots.txt', robots('User-agent: *\nDisallow: /private\n'));
      server.route('/private/job', json({ secret: true }));
      server.route('/public/job', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions());

      const { error } = await settle(client.getJson(server.url('/private/job')));
      expect(error).toBeInstanceOf(RobotsBlockedError);
      expect(error).toMatchObject({ code: 'robots_blocked', reason: 'disallowed', retryable: false, url: server.url('/private/job') });
      await expect(client.getJson(server.url('/public/job'))).resolves.toEqual({ ok: true });

      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt', '/public/job']);
      expect(Object.values(client.stats())[0].robotsFetches).toBe(1);
    });

    it('follows the jobctrl group over the * group', async () => {
      await startServer();
      server.route('/robots.txt', robots('User-agent: *\nDisallow: /\n\nUser-agent: JobCtrl\nDisallow: /jobs/internal\n'));
      server.route('/jobs/1', json({ id: 1 }));
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(server.url('/jobs/1'))).resolves.toEqual({ id: 1 });
      await expect(client.getJson(server.url('/jobs/internal/2'))).rejects.toBeInstanceOf(RobotsBlockedError);
      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt', '/jobs/1']);
    });

    it('treats a robots.txt 404 as allow-all', async () => {
      await startServer();
      server.route('/anything/at/all', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(server.url('/anything/at/all'))).resolves.toEqual({ ok: true });
      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt', '/anything/at/all']);
    });

    it('treats a robots.txt 5xx as disallow-all for robotsUnreachableTtlMs, then fetches it again', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/robots.txt', sequence([500, 404]));
      server.route('/jobs', json({ ok: true }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, robotsUnreachableTtlMs: 120_000, clock: fake });

      const { error } = await settle(client.getJson(server.url('/jobs')));
      expect(error).toBeInstanceOf(RobotsBlockedError);
      expect(error).toMatchObject({ reason: 'unreachable', retryable: true });
      fake.advance(119_999);
      await expect(client.getJson(server.url('/jobs'))).rejects.toMatchObject({ reason: 'unreachable' });
      expect(server.hitsFor('/robots.txt')).toHaveLength(1);

      fake.advance(1);
      await expect(client.getJson(server.url('/jobs'))).resolves.toEqual({ ok: true });
      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt', '/robots.txt', '/jobs']);
    });

    it('treats an unreachable robots.txt (connection refused) as a retryable block', async () => {
      await startServer();
      const deadUrl = server.url('/jobs');
      await server.stop();
      server = new TestServer();
      await server.start();
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(deadUrl)).rejects.toMatchObject({ code: 'robots_blocked', reason: 'unreachable', retryable: true });
    });

    it('fetches robots.txt once for concurrent first requests and again after robotsTtlMs', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/robots.txt', robots('User-agent: *\nAllow: /\n'));
      for (const n of [1, 2, 3]) server.route(`/jobs/${n}`, json({ n }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, maxInFlightPerHost: 3, robotsTtlMs: 1000, clock: fake });

      await expect(Promise.all([1, 2, 3].map((n) => client.getJson(server.url(`/jobs/${n}`))))).resolves.toEqual([{ n: 1 }, { n: 2 }, { n: 3 }]);
      expect(server.hitsFor('/robots.txt')).toHaveLength(1);

      fake.advance(999);
      await client.getJson(server.url('/jobs/1'));
      expect(server.hitsFor('/robots.txt')).toHaveLength(1);
      fake.advance(1);
      await client.getJson(server.url('/jobs/1'));
      expect(server.hitsFor('/robots.txt')).toHaveLength(2);
    });

    it('checks the target host of a redirect against its own robots.txt', async () => {
      await startServer();
      server.route('/go-private', status(302, { location: server.url('/private', B) }), A);
      server.route('/go-public', status(301, { location: server.url('/public', B) }), A);
      server.route('/robots.txt', robots('User-agent: *\nDisallow: /private\n'), B);
      server.route('/public', json({ landed: true }), B);
      server.route('/private', json({ landed: 'private' }), B);
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(server.url('/go-public', A))).resolves.toEqual({ landed: true });
      const { error } = await settle(client.getJson(server.url('/go-private', A)));
      expect(error).toBeInstanceOf(RobotsBlockedError);
      expect(error).toMatchObject({ url: server.url('/private', B) });
      expect(server.hits.filter((hit) => hit.host === B).map((hit) => hit.path)).toEqual(['/robots.txt', '/public']);
    });

    it('fetches anything when respectRobots is false', async () => {
      await startServer();
      server.route('/robots.txt', robots('User-agent: *\nDisallow: /\n'));
      server.route('/jobs', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions({ respectRobots: false }));

      await expect(client.getJson(server.url('/jobs'))).resolves.toEqual({ ok: true });
      expect(server.hits.map((hit) => hit.path)).toEqual(['/jobs']);
    });
  });

  describe('redirects, size cap, timeout and parsing', () => {
    it('stops after maxRedirects', async () => {
      await startServer();
      server.route('/loop', status(302, { location: '/loop' }));
      const client = new HostPolicyHttpClient(fastOptions({ maxRedirects: 2, respectRobots: false }));

      const { error } = await settle(client.getText(server.url('/loop')));
      expect(error).toBeInstanceOf(TooManyRedirectsError);
      expect(error).toMatchObject({ retryable: false });
      expect(server.hitsFor('/loop')).toHaveLength(3);
    });

    it('aborts a streamed body past maxResponseBytes and frees the host slot', async () => {
      await startServer();
      server.route('/big', (_req, res) => {
        // Chunked, no Content-Length: the cap has to be enforced while streaming.
        res.write('x'.repeat(600));
        res.write('x'.repeat(600));
        res.end('x'.repeat(600));
      });
      server.route('/small', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions({ maxResponseBytes: 1000 }));

      const { error } = await settle(client.getText(server.url('/big')));
      expect(error).toBeInstanceOf(ResponseTooLargeError);
      expect(error).toMatchObject({ code: 'response_too_large', retryable: false, limitBytes: 1000, url: server.url('/big') });
      expect(Object.values(client.stats())[0]).toMatchObject({ inFlight: 0, queued: 0 });
      await expect(client.getJson(server.url('/small'))).resolves.toEqual({ ok: true });
      expect(server.hitsFor('/big')).toHaveLength(1);
    });

    it('refuses a body whose Content-Length already exceeds the cap', async () => {
      await startServer();
      server.route('/big', (_req, res) => {
        res.writeHead(200, { 'content-length': '5000' });
        res.end('y'.repeat(5000));
      });
      const client = new HostPolicyHttpClient(fastOptions({ maxResponseBytes: 1000 }));

      await expect(client.getText(server.url('/big'))).rejects.toBeInstanceOf(ResponseTooLargeError);
    });

    it('accepts a body of exactly maxResponseBytes', async () => {
      await startServer();
      server.route('/edge', (_req, res) => res.end('z'.repeat(1000)));
      const client = new HostPolicyHttpClient(fastOptions({ maxResponseBytes: 1000 }));

      await expect(client.getText(server.url('/edge'))).resolves.toHaveLength(1000);
    });

    it('reads a JSON API response under its own larger cap (api_response_max_bytes), streamed and still bounded (#27)', async () => {
      await startServer();
      // A whole board in one document, larger than the page cap; chunked, so the cap holds while streaming.
      const board = JSON.stringify({ jobs: Array.from({ length: 40 }, (_, i) => ({ id: i, text: 'x'.repeat(50) })) });
      server.route('/board', (_req, res) => {
        res.write(board.slice(0, 1500));
        res.end(board.slice(1500));
      });
      server.route('/page', (_req, res) => res.end(board));
      const client = new HostPolicyHttpClient(fastOptions({ maxResponseBytes: 1000, maxApiResponseBytes: board.length }));

      await expect(client.getJson(server.url('/board'))).resolves.toMatchObject({ jobs: expect.arrayContaining([{ id: 39, text: 'x'.repeat(50) }]) });
      // The page cap still holds for text, and the API cap for JSON past it.
      await expect(client.getText(server.url('/page'))).rejects.toBeInstanceOf(ResponseTooLargeError);
      const smaller = new HostPolicyHttpClient(fastOptions({ maxResponseBytes: 1000, maxApiResponseBytes: board.length - 1 }));
      await expect(smaller.getJson(server.url('/board'))).rejects.toMatchObject({ code: 'response_too_large', limitBytes: board.length - 1 });
    });

    it('caps a JSON API response at 16 MiB by default, not at the page cap', async () => {
      await startServer();
      const big = JSON.stringify({ blob: 'y'.repeat(1_200_000) });
      server.route('/ramp', (_req, res) => res.end(big));
      await expect(new HostPolicyHttpClient(fastOptions()).getJson(server.url('/ramp'))).resolves.toEqual({ blob: 'y'.repeat(1_200_000) });
    });

    it('times out a request that never answers, without retrying it', async () => {
      await startServer();
      server.holdRoute('/hang');
      const client = new HostPolicyHttpClient(fastOptions({ requestTimeoutMs: 50 }));

      const { error } = await settle(client.getText(server.url('/hang')));
      expect(error).toBeInstanceOf(RequestTimeoutError);
      expect(error).toMatchObject({ code: 'request_timeout', retryable: true, timeoutMs: 50 });
      expect(server.hitsFor('/hang')).toHaveLength(1);
      expect(Object.values(client.stats())[0]).toMatchObject({ inFlight: 0, queued: 0 });
    });

    it('reports malformed JSON with the url and the parse error', async () => {
      await startServer();
      server.route('/broken', (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"jobs": [1, 2');
      });
      const client = new HostPolicyHttpClient(fastOptions());

      const { error } = await settle(client.getJson(server.url('/broken')));
      expect(error).toBeInstanceOf(MalformedResponseError);
      expect(error).toMatchObject({ code: 'malformed_response', retryable: false, url: server.url('/broken') });
      expect((error as MalformedResponseError).reason).toMatch(/^body is not valid JSON \(.+\)$/);
      expect((error as MalformedResponseError).cause).toBeInstanceOf(Error);
      expect((error as MalformedResponseError).message).toContain(server.url('/broken'));
    });

    it('retries a body cut off before its Content-Length as a network failure', async () => {
      await startServer();
      let calls = 0;
      server.route('/cut', (_req, res) => {
        calls += 1;
        if (calls === 1) {
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
          res.write('{"jobs": [');
          res.socket?.destroy();
          return;
        }
        json({ jobs: [] })(_req, res);
      });
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getJson(server.url('/cut'))).resolves.toEqual({ jobs: [] });
      expect(server.hitsFor('/cut')).toHaveLength(2);

      const once = new HostPolicyHttpClient(fastOptions({ maxAttempts: 1 }));
      calls = 0;
      await expect(once.getJson(server.url('/cut'))).rejects.toMatchObject({ code: 'network_error', retryable: true });
    });

    it('decodes text with the declared charset and sends the jobctrl User-Agent', async () => {
      await startServer();
      let userAgent: string | undefined;
      server.route('/latin1', (req, res) => {
        userAgent = req.headers['user-agent'];
        res.writeHead(200, { 'content-type': 'text/html; charset=iso-8859-1' });
        res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      });
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getText(server.url('/latin1'))).resolves.toBe('café');
      expect(userAgent).toMatch(/^jobctrl\//);
    });

    it('rejects URLs that are not http(s) without any request', async () => {
      await startServer();
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getText('not a url')).rejects.toBeInstanceOf(InvalidUrlError);
      await expect(client.getText('ftp://127.0.0.1/file')).rejects.toMatchObject({ code: 'invalid_url', retryable: false });
      expect(client.stats()).toEqual({});
    });
  });

  describe('cancellation', () => {
    it('rejects promptly when aborted during a cooldown wait, and nothing more is sent', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/jobs', sequence([429, 200], { ok: true }, { 'retry-after': '600' }));
      server.route('/later', json({ later: true }));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 0, clock: fake });
      const controller = new AbortController();

      const pending = settle(client.getJson(server.url('/jobs'), { signal: controller.signal }));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 1, 'retry waiting for the cooldown');
      controller.abort();
      // No time passes on the fake clock: only the abort can settle this.
      const { error } = await pending;
      expect(error).toBeInstanceOf(RequestAbortedError);
      expect(error).toMatchObject({ name: 'AbortError', code: 'aborted', retryable: false });
      expect(Object.values(client.stats())[0]).toMatchObject({ inFlight: 0, queued: 0 });

      fake.advance(600_000);
      await expect(client.getJson(server.url('/later'))).resolves.toEqual({ later: true });
      expect(server.hits.map((hit) => hit.path)).toEqual(['/robots.txt', '/jobs', '/later']);
    });

    it('rejects promptly when aborted during a backoff sleep', async () => {
      await startServer(true);
      const fake = clock as FakeClock;
      server.route('/jobs', status(500));
      const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 10_000, clock: fake });
      const controller = new AbortController();

      const pending = settle(client.getJson(server.url('/jobs'), { signal: controller.signal }));
      await waitFor(() => server.hitsFor('/jobs').length === 1 && Object.values(client.stats())[0]?.inFlight === 0 && fake.pending() === 1, 'backoff sleep');
      controller.abort();
      expect((await pending).error).toBeInstanceOf(RequestAbortedError);
      expect(fake.pending()).toBe(0);
      fake.advance(60_000);
      await new Promise((resolve) => setImmediate(resolve));
      expect(server.hitsFor('/jobs')).toHaveLength(1);
    });

    it('removes an aborted caller from the host queue; the server never sees it', async () => {
      await startServer();
      server.holdRoute('/slow');
      server.route('/queued', json({ queued: true }));
      const client = new HostPolicyHttpClient(fastOptions());
      const controller = new AbortController();

      const slow = client.getText(server.url('/slow'));
      await waitFor(() => server.heldHits().length === 1, 'slow in flight');
      const queued = settle(client.getJson(server.url('/queued'), { signal: controller.signal }));
      await waitFor(() => Object.values(client.stats())[0]?.queued === 1, 'second caller queued');
      controller.abort();
      expect((await queued).error).toBeInstanceOf(RequestAbortedError);
      expect(Object.values(client.stats())[0]).toMatchObject({ inFlight: 1, queued: 0 });

      server.releaseHeld();
      await expect(slow).resolves.toBe('released');
      expect(server.hitsFor('/queued')).toHaveLength(0);
    });

    it('aborts an in-flight request and releases its slot for the next caller', async () => {
      await startServer();
      server.holdRoute('/slow');
      server.route('/next', json({ next: true }));
      const client = new HostPolicyHttpClient(fastOptions());
      const controller = new AbortController();

      const slow = settle(client.getText(server.url('/slow'), { signal: controller.signal }));
      const next = client.getJson(server.url('/next'));
      await waitFor(() => server.heldHits().length === 1, 'slow in flight');
      controller.abort();
      expect((await slow).error).toBeInstanceOf(RequestAbortedError);
      await expect(next).resolves.toEqual({ next: true });
    });

    it('keeps a shared robots.txt fetch alive for the callers still waiting on it', async () => {
      await startServer();
      server.holdRoute('/robots.txt', 'User-agent: *\nAllow: /\n');
      server.route('/jobs', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions());
      const controller = new AbortController();

      const quitter = settle(client.getJson(server.url('/jobs'), { signal: controller.signal }));
      const stayer = client.getJson(server.url('/jobs'));
      await waitFor(() => server.heldHits().length === 1, 'robots fetch in flight');
      controller.abort();
      expect((await quitter).error).toBeInstanceOf(RequestAbortedError);

      server.releaseHeld();
      await expect(stayer).resolves.toEqual({ ok: true });
      expect(server.hitsFor('/robots.txt')).toHaveLength(1);
      expect(server.hitsFor('/jobs')).toHaveLength(1);
    });

    it('cancels the robots.txt fetch when its last waiter aborts', async () => {
      await startServer();
      server.holdRoute('/robots.txt', 'User-agent: *\nAllow: /\n');
      server.route('/jobs', json({ ok: true }));
      const client = new HostPolicyHttpClient(fastOptions());
      const controller = new AbortController();

      const only = settle(client.getJson(server.url('/jobs'), { signal: controller.signal }));
      await waitFor(() => server.heldHits().length === 1, 'robots fetch in flight');
      controller.abort();
      expect((await only).error).toBeInstanceOf(RequestAbortedError);
      await waitFor(() => Object.values(client.stats())[0]?.inFlight === 0, 'robots slot released');

      // Nothing was cached from the cancelled fetch: the next caller fetches robots.txt afresh.
      server.route('/robots.txt', robots('User-agent: *\nAllow: /\n'));
      await expect(client.getJson(server.url('/jobs'))).resolves.toEqual({ ok: true });
      expect(server.hitsFor('/robots.txt')).toHaveLength(2);
    });

    it('rejects at once for an already-aborted signal without touching the network', async () => {
      await startServer();
      const client = new HostPolicyHttpClient(fastOptions());

      await expect(client.getText(server.url('/jobs'), { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(RequestAbortedError);
      expect(server.hits).toHaveLength(0);
    });
  });

  it('validates its options', () => {
    expect(() => new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, maxInFlightPerHost: 0 })).toThrow(RangeError);
    expect(() => new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: -1 })).toThrow(/minSpacingMs/);
    expect(() => new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, maxResponseBytes: Number.NaN })).toThrow(/maxResponseBytes/);
    expect(() => new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, perHost: { 'a:80': { maxInFlight: 0 } } })).toThrow(/perHost/);
  });
});
