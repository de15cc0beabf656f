import type { ServerResponse } from 'node:http';
import { HostPolicyHttpClient, type ExchangeRequestKind, type HostPolicyOptions } from './host-policy.http-client';
import { RequestTimeoutError, ResponseTooLargeError, RobotsBlockedError, TooManyRedirectsError } from './http.errors';
import { FakeClock } from './testing/fake-clock.testing';
import { TestServer, waitFor } from './testing/test-server.testing';

/** The test servers listen on loopback, which the crawler refuses unless allowed_private_hosts lists it. */
const LOOPBACK = ['127.0.0.1', 'localhost'];

const A = '127.0.0.1';
const B = 'localhost';
const HTML = 'text/html';

function reply(code: number, body = `status ${code}`, headers: Record<string, string> = {}) {
  return (_req: unknown, res: ServerResponse): void => {
    res.writeHead(code, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
}

/** Answers each request with the next status of `codes`, the last one repeating. */
function sequence(codes: number[]) {
  let call = 0;
  return (req: unknown, res: ServerResponse): void => {
    const code = codes[Math.min(call, codes.length - 1)];
    call += 1;
    reply(code)(req, res);
  };
}

function fastOptions(overrides: HostPolicyOptions = {}): HostPolicyOptions {
  return { allowedPrivateHosts: LOOPBACK, minSpacingMs: 0, backoffBaseMs: 1, backoffMaxMs: 4, random: () => 0.5, respectRobots: false, ...overrides };
}

function portKey(server: TestServer, host: string): string {
  return `${host}:${new URL(server.url('/')).port}`;
}

describe('HostPolicyHttpClient.exchange', () => {
  let server: TestServer;

  afterEach(async () => {
    await server?.stop();
  });

  async function startServer(now?: () => number): Promise<void> {
    server = new TestServer(now);
    await server.start();
  }

  it('returns a 4xx/5xx final answer with its body instead of throwing, after following redirects across hosts', async () => {
    await startServer();
    server.route('/jobs/1', reply(301, '', { location: server.url('/careers/1', B) }), A);
    server.route('/careers/1', reply(302, '', { location: '/gone' }), B);
    server.route('/gone', reply(410, '<h1>This position has been filled</h1>'), B);
    const client = new HostPolicyHttpClient(fastOptions());

    const result = await client.exchange(server.url('/jobs/1', A), { accept: HTML });

    expect(result).toEqual({
      url: server.url('/jobs/1', A),
      finalUrl: server.url('/gone', B),
      status: 410,
      hops: [
        { url: server.url('/jobs/1', A), status: 301 },
        { url: server.url('/careers/1', B), status: 302 },
      ],
      contentType: 'text/html; charset=utf-8',
      body: '<h1>This position has been filled</h1>',
      bytes: 38,
    });
    // The hops on B went through B's own gate.
    expect(client.stats()[portKey(server, B)]).toMatchObject({ requests: 2 });
  });

  it('asks beforeRequest before every request it makes (first, each retry, each hop), and a throw refuses the request', async () => {
    await startServer();
    server.route('/flaky', sequence([503, 200]));
    server.route('/moved', reply(302, '', { location: '/flaky' }));
    server.route('/never', reply(200, 'never'));
    const client = new HostPolicyHttpClient(fastOptions({ defaultCooldownMs: 0 }));
    const asked: Array<[string, ExchangeRequestKind]> = [];

    const result = await client.exchange(server.url('/moved'), { accept: HTML, beforeRequest: (url, { kind }) => void asked.push([new URL(url).pathname, kind]) });
    expect(result.status).toBe(200);
    expect(asked).toEqual([
      ['/moved', 'first'],
      ['/flaky', 'redirect'],
      ['/flaky', 'retry'],
    ]);
    expect(server.hits.map((hit) => hit.path)).toEqual(['/moved', '/flaky', '/flaky']);

    const refusal = new Error('budget spent');
    await expect(
      client.exchange(server.url('/never'), {
        accept: HTML,
        beforeRequest: () => {
          throw refusal;
        },
      }),
    ).rejects.toBe(refusal);
    expect(server.hitsFor('/never')).toHaveLength(0);
  });

  it('retries a 429 with the cooldown and returns it as 429 once the attempts are spent', async () => {
    await startServer();
    server.route('/limited', reply(429, 'slow down', { 'retry-after': '0' }));
    const client = new HostPolicyHttpClient(fastOptions({ maxAttempts: 3 }));

    const result = await client.exchange(server.url('/limited'), { accept: HTML });
    expect(result).toMatchObject({ status: 429, body: 'slow down', hops: [] });
    expect(server.hitsFor('/limited')).toHaveLength(3);
  });

  it('returns a 429 at once when its retry would wait longer than maxRetryWaitMs, keeping the cooldown for everyone', async () => {
    await startServer();
    server.route('/limited', reply(429, 'come back in ten minutes', { 'retry-after': '600' }));
    const client = new HostPolicyHttpClient(fastOptions());

    const result = await client.exchange(server.url('/limited'), { accept: HTML, maxRetryWaitMs: 20_000 });
    expect(result).toMatchObject({ status: 429, body: 'come back in ten minutes' });
    expect(server.hitsFor('/limited')).toHaveLength(1);
    expect(client.stats()[portKey(server, A)].cooldownUntil).toBeGreaterThan(Date.now() + 500_000);
  });

  it('throws TooManyRedirectsError with every hop on a redirect loop', async () => {
    await startServer();
    server.route('/loop', reply(302, '', { location: '/loop' }));
    const client = new HostPolicyHttpClient(fastOptions());

    const error = await client.exchange(server.url('/loop'), { accept: HTML, maxRedirects: 2 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TooManyRedirectsError);
    expect((error as TooManyRedirectsError).hops).toEqual([0, 1, 2].map(() => ({ url: server.url('/loop'), status: 302 })));
    expect(server.hitsFor('/loop')).toHaveLength(3);
  });

  it("applies a caller's stricter size cap, reporting every byte it kept", async () => {
    await startServer();
    server.route('/big', (_req, res) => {
      res.write('x'.repeat(600));
      res.write('x'.repeat(600));
      res.end('x'.repeat(600));
    });
    const client = new HostPolicyHttpClient(fastOptions());
    let counted = 0;

    const error = await client.exchange(server.url('/big'), { accept: HTML, maxResponseBytes: 1000, onBytes: (n) => (counted += n) }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ResponseTooLargeError);
    expect(error).toMatchObject({ limitBytes: 1000 });
    expect(counted).toBeLessThanOrEqual(1000);
  });

  it("applies a caller's shorter timeout", async () => {
    await startServer();
    server.holdRoute('/hang');
    const client = new HostPolicyHttpClient(fastOptions());

    const error = await client.exchange(server.url('/hang'), { accept: HTML, timeoutMs: 50 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ timeoutMs: 50 });
    expect(server.hitsFor('/hang')).toHaveLength(1);
  });

  it('still throws RobotsBlockedError for a disallowed hop', async () => {
    await startServer();
    server.route('/robots.txt', reply(200, 'User-agent: *\nDisallow: /private\n'));
    server.route('/go', reply(302, '', { location: '/private' }));
    const client = new HostPolicyHttpClient(fastOptions({ respectRobots: true }));

    await expect(client.exchange(server.url('/go'), { accept: HTML })).rejects.toBeInstanceOf(RobotsBlockedError);
    expect(server.hitsFor('/private')).toHaveLength(0);
  });
});

describe('HostPolicyHttpClient.reserveHost', () => {
  let server: TestServer;

  afterEach(async () => {
    await server?.stop();
  });

  it("holds the host's slot like a request: spacing, one in flight, and a 429 cools the host down", async () => {
    const clock = new FakeClock();
    server = new TestServer(() => clock.now());
    await server.start();
    server.route('/page', reply(200, 'ok'));
    const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 2000, respectRobots: false, defaultCooldownMs: 60_000, clock });
    const key = portKey(server, A);

    const first = await client.reserveHost(server.url('/img/1.png'));
    let secondGranted = false;
    const second = client.reserveHost(server.url('/img/2.png')).then((reservation) => {
      secondGranted = true;
      return reservation;
    });
    clock.advance(5000);
    await new Promise((resolve) => setImmediate(resolve));
    // Spacing has long passed, but the first resource is still in flight.
    expect(secondGranted).toBe(false);
    expect(client.stats()[key]).toMatchObject({ inFlight: 1, queued: 1 });

    first.release({ status: 429 });
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondGranted).toBe(false);
    clock.advance(59_999);
    await new Promise((resolve) => setImmediate(resolve));
    expect(secondGranted).toBe(false);
    clock.advance(1);
    (await second).release();
    expect(secondGranted).toBe(true);

    // A request of the client itself waits the spacing after the browser's last start.
    const page = client.getText(server.url('/page'));
    await waitFor(() => client.stats()[key]?.queued === 1, 'page queued');
    clock.advance(2000);
    await expect(page).resolves.toBe('ok');
  });

  it('checks robots.txt when asked to (a document), and gives up its place when aborted', async () => {
    server = new TestServer();
    await server.start();
    server.route('/robots.txt', reply(200, 'User-agent: *\nDisallow: /private\n'));
    const client = new HostPolicyHttpClient({ allowedPrivateHosts: LOOPBACK, minSpacingMs: 0 });

    await expect(client.reserveHost(server.url('/private/doc'), { robots: true })).rejects.toBeInstanceOf(RobotsBlockedError);
    const held = await client.reserveHost(server.url('/private/asset.js'));
    const controller = new AbortController();
    const waiting = client.reserveHost(server.url('/x.js'), { signal: controller.signal });
    controller.abort();
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
    held.release();
    expect(client.stats()[portKey(server, A)]).toMatchObject({ inFlight: 0, queued: 0 });
  });
});
