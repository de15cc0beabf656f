import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostPolicyHttpClient, type HostPolicyOptions } from '@jobctrl/shared/http';
import { CheckFetcher, CheckLimitError, type CheckFetcherOptions, type CheckRendererPort } from './check-fetcher';
import {
  MAX_BROWSER_RESOURCES_PER_CHECK,
  MAX_BYTES_PER_CHECK,
  MAX_POSTING_REQUESTS_PER_CHECK,
  MAX_REDIRECT_HOPS,
  MAX_RESPONSE_BYTES,
  PER_HOST_START_SPACING_MS,
} from './posting-check.limits';

type Handler = (req: http.IncomingMessage, res: http.ServerResponse) => void;

interface Hit {
  host: string;
  path: string;
  at: number;
}

/** A loopback server that records what reached it (host, path, arrival) and the peak in flight per host. */
class Board {
  readonly hits: Hit[] = [];
  readonly peakByHost = new Map<string, number>();
  private readonly inFlight = new Map<string, number>();
  private readonly routes = new Map<string, Handler>();
  private readonly server = http.createServer((req, res) => this.handle(req, res));
  private port = 0;

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise((resolve) => this.server.close(resolve));
  }

  url(path: string, host: '127.0.0.1' | 'localhost' = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  route(path: string, handler: Handler): void {
    this.routes.set(path, handler);
  }

  paths(): string[] {
    return this.hits.map((hit) => hit.path);
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    this.hits.push({ host, path: req.url ?? '/', at: Date.now() });
    const now = (this.inFlight.get(host) ?? 0) + 1;
    this.inFlight.set(host, now);
    this.peakByHost.set(host, Math.max(this.peakByHost.get(host) ?? 0, now));
    res.on('close', () => this.inFlight.set(host, (this.inFlight.get(host) ?? 1) - 1));
    const handler = this.routes.get(req.url ?? '/') ?? (req.url?.startsWith('/res/') ? this.routes.get('/res/*') : undefined);
    if (handler) return handler(req, res);
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<h1>Not found</h1>');
  }
}

function page(body: string, status = 200, headers: Record<string, string> = {}): Handler {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers });
    res.end(body);
  };
}

function redirect(location: string): Handler {
  return page('', 302, { location });
}

/** Streams `total` bytes in 64 KiB chunks, honouring backpressure, and records how much it wrote. */
function stream(total: number, written: { bytes: number }, declareLength = false): Handler {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html', ...(declareLength ? { 'content-length': String(total) } : {}) });
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const pump = (): void => {
      while (written.bytes < total && !res.destroyed) {
        const piece = chunk.subarray(0, Math.min(chunk.length, total - written.bytes));
        written.bytes += piece.length;
        if (!res.write(piece)) return void res.once('drain', pump);
      }
      if (written.bytes >= total) res.end();
    };
    pump();
  };
}

/** The production spacing (2 s) only where a test is about it; elsewhere none, so specs stay quick. */
function client(overrides: HostPolicyOptions = {}): HostPolicyHttpClient {
  // The test servers are loopback: listed, as allowed_private_hosts lists the simulators in every harness.
  return new HostPolicyHttpClient({ allowedPrivateHosts: ['127.0.0.1', 'localhost'], minSpacingMs: 0, respectRobots: false, backoffBaseMs: 1, backoffMaxMs: 2, random: () => 0.5, ...overrides });
}

/**
 * A client whose requests record when they really start (the moment the host gate let them go):
 * the spacing is a promise about starts, and arrival at the server adds connection setup noise.
 */
function recordingClient(starts: Hit[]): HostPolicyHttpClient {
  return client({
    minSpacingMs: PER_HOST_START_SPACING_MS,
    fetch: (input, init) => {
      const url = new URL(String(input));
      starts.push({ host: url.hostname, path: url.pathname, at: Date.now() });
      return fetch(input, init);
    },
  });
}

/** Node timers may fire a millisecond before Date.now() says the delay is over; nothing more. */
const TIMER_SLACK_MS = 2;

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('expected a failure'),
    (err: unknown) => err,
  );
}

/**
 * A renderer that behaves like a page loading `resources` six at a time (Chromium's connections per
 * host): each goes through the check's admitResource and, when admitted, is really fetched from the
 * board. (The real ChromiumRenderer calling the hook is tested in enrichment's renderer spec.)
 */
function scriptedPage(resources: string[]): CheckRendererPort {
  return {
    async renderPage(url, { signal, admitResource }) {
      const queue = [...resources];
      const load = async (): Promise<void> => {
        for (let resource = queue.shift(); resource !== undefined && !signal.aborted; resource = queue.shift()) {
          const settle = await admitResource(resource, { signal, navigation: false });
          if (!settle) continue;
          try {
            const response = await fetch(resource, { signal });
            const bytes = (await response.arrayBuffer()).byteLength;
            settle({ status: response.status, bytes });
          } catch {
            settle({ bytes: 0 });
          }
        }
      };
      await Promise.all(Array.from({ length: 6 }, load));
      signal.throwIfAborted();
      return { html: '<html></html>', finalUrl: url };
    },
  };
}

describe('CheckFetcher', () => {
  let board: Board;

  beforeEach(async () => {
    board = new Board();
    await board.start();
  });

  afterEach(async () => {
    await board.stop();
  });

  function fetcher(options: Partial<CheckFetcherOptions> = {}): CheckFetcher {
    return new CheckFetcher({ http: client(), ...options });
  }

  it(`answers a posting as data and refuses the ${MAX_POSTING_REQUESTS_PER_CHECK + 1}th request (retries count) without sending it`, async () => {
    let calls = 0;
    board.route('/flaky', (req, res) => page('ok', (calls += 1) === 1 ? 503 : 200, { 'retry-after': '0' })(req, res));
    board.route('/job', page('<h1>Engineer</h1>'));
    board.route('/gone', page('<h1>This job is no longer available</h1>', 404));
    const check = fetcher();

    await expect(check.fetch(board.url('/flaky'), 'html')).resolves.toMatchObject({ status: 200, body: 'ok' });
    expect(check.usage().requests).toBe(2);
    await expect(check.fetch(board.url('/gone'), 'html')).resolves.toMatchObject({ status: 404, body: '<h1>This job is no longer available</h1>', hops: [] });
    for (let n = 3; n < MAX_POSTING_REQUESTS_PER_CHECK; n++) await check.fetch(board.url('/job'), 'html');
    expect(check.usage().requests).toBe(MAX_POSTING_REQUESTS_PER_CHECK);
    const before = board.hits.length;

    const error = await failure(check.fetch(board.url('/job'), 'html'));
    expect(error).toBeInstanceOf(CheckLimitError);
    expect(error).toMatchObject({ limit: 'requests' });
    expect(board.hits.length).toBe(before);
  });

  it("answers a 429 whose retry would outlast an operation as 429, without holding the check through the host's cooldown", async () => {
    board.route('/limited', page('Too many requests', 429, { 'retry-after': '600' }));
    const check = fetcher();

    await expect(check.fetch(board.url('/limited'), 'html')).resolves.toMatchObject({ status: 429 });
    expect(board.paths()).toEqual(['/limited']);
    expect(check.usage().requests).toBe(1);
  });

  it(`follows ${MAX_REDIRECT_HOPS} redirect hops and refuses the ${MAX_REDIRECT_HOPS + 1}th, and a loop, without requesting past it`, async () => {
    for (let n = 1; n <= 5; n++) board.route(`/r${n}`, redirect(n === 5 ? '/final' : `/r${n + 1}`));
    board.route('/final', page('<h1>Engineer</h1>'));
    board.route('/loop', redirect('/loop'));
    const check = fetcher();

    const four = await check.fetch(board.url('/r2'), 'html');
    expect(four).toMatchObject({ status: 200, finalUrl: board.url('/final') });
    expect(four.hops.map((hop) => new URL(hop.url).pathname)).toEqual(['/r2', '/r3', '/r4', '/r5']);
    // Hops are bounded apart: they are not posting requests.
    expect(check.usage()).toMatchObject({ requests: 1, redirects: 4 });

    board.hits.length = 0;
    const five = await failure(check.fetch(board.url('/r1'), 'html'));
    expect(five).toBeInstanceOf(CheckLimitError);
    expect(five).toMatchObject({ limit: 'redirects', details: { limit: MAX_REDIRECT_HOPS } });
    expect(board.paths()).toEqual(['/r1', '/r2', '/r3', '/r4', '/r5']);

    board.hits.length = 0;
    const loop = await failure(check.fetch(board.url('/loop'), 'html'));
    expect(loop).toMatchObject({ limit: 'redirects' });
    expect((loop as CheckLimitError).details['hops']).toHaveLength(MAX_REDIRECT_HOPS + 1);
    expect(board.paths()).toEqual(Array(MAX_REDIRECT_HOPS + 1).fill('/loop'));
  });

  it(`refuses a response over ${MAX_RESPONSE_BYTES} bytes without reading past the cap`, async () => {
    const streamed = { bytes: 0 };
    const declared = { bytes: 0 };
    // Far more than loopback socket buffers hold, so "stopped early" is visible at the server.
    const huge = 64 * MAX_RESPONSE_BYTES;
    board.route('/bloated', stream(huge, streamed));
    board.route('/declared', stream(huge, declared, true));
    const check = fetcher();

    const error = await failure(check.fetch(board.url('/bloated'), 'html'));
    expect(error).toBeInstanceOf(CheckLimitError);
    expect(error).toMatchObject({ limit: 'bytes_per_response', details: { limitBytes: MAX_RESPONSE_BYTES } });
    expect(check.usage().bytes).toBeLessThanOrEqual(MAX_RESPONSE_BYTES);
    expect(streamed.bytes).toBeLessThan(huge);

    // A Content-Length over the cap is refused before its body is read at all.
    const bytesBefore = check.usage().bytes;
    await expect(check.fetch(board.url('/declared'), 'html')).rejects.toMatchObject({ limit: 'bytes_per_response' });
    expect(check.usage().bytes).toBe(bytesBefore);
  });

  it(`refuses anything past ${MAX_BYTES_PER_CHECK} bytes per check, across responses and browser resources`, async () => {
    board.route('/megabyte', page('m'.repeat(MAX_RESPONSE_BYTES)));
    board.route('/res/*', page('r'));
    const check = fetcher({ renderer: scriptedPage([board.url('/res/1')]) });
    const perResponse = MAX_BYTES_PER_CHECK / MAX_RESPONSE_BYTES;
    for (let n = 0; n < perResponse; n++) await check.fetch(board.url('/megabyte'), 'html');
    expect(check.usage().bytes).toBe(MAX_BYTES_PER_CHECK);
    const before = board.hits.length;

    await expect(check.fetch(board.url('/megabyte'), 'html')).rejects.toMatchObject({ limit: 'bytes_per_check' });
    expect(board.hits.length).toBe(before);
    // A browser resource's byte is one too many.
    await expect(check.render(board.url('/job'), '<html></html>')).rejects.toMatchObject({ limit: 'bytes_per_check' });
  });

  it("shrinks a response's cap to what is left of the check's bytes", async () => {
    board.route('/kilobyte', page('k'.repeat(1000)));
    const check = fetcher({ limits: { maxResponseBytes: 1000, maxBytesPerCheck: 2500 } });
    await check.fetch(board.url('/kilobyte'), 'html');
    await check.fetch(board.url('/kilobyte'), 'html');

    const error = await failure(check.fetch(board.url('/kilobyte'), 'html'));
    expect(error).toMatchObject({ limit: 'bytes_per_check', details: { limitBytes: 500 } });
    expect(check.usage().bytes).toBeLessThanOrEqual(2500);
  });

  it(`admits ${MAX_BROWSER_RESOURCES_PER_CHECK} browser resources, one host slot each, and stops the render at the next`, async () => {
    // Slow enough that six loads at once would overlap at the server if nothing held them apart.
    board.route('/res/*', (req, res) => void setTimeout(() => page('r')(req, res), 10));
    const resources = Array.from({ length: 80 }, (_, i) => board.url(`/res/${i}`));
    const check = fetcher({ renderer: scriptedPage(resources) });

    const error = await failure(check.render(board.url('/job'), '<html></html>'));
    expect(error).toBeInstanceOf(CheckLimitError);
    expect(error).toMatchObject({ limit: 'browser_resources', details: { limit: MAX_BROWSER_RESOURCES_PER_CHECK } });
    expect(check.usage().browserResources).toBe(MAX_BROWSER_RESOURCES_PER_CHECK);
    // The stop cuts off the (at most five) admitted resources still waiting for the host.
    expect(board.hits.length).toBeLessThanOrEqual(MAX_BROWSER_RESOURCES_PER_CHECK);
    expect(board.hits.length).toBeGreaterThanOrEqual(MAX_BROWSER_RESOURCES_PER_CHECK - 5);
    expect(board.paths()).not.toContain(`/res/${MAX_BROWSER_RESOURCES_PER_CHECK + 5}`);
    // Every resource waited for the host's slot: never two at once on it.
    expect(board.peakByHost.get('127.0.0.1')).toBe(1);
  });

  it('aborts a slow drip at the operation timeout, over HTTP and in the browser', async () => {
    board.route('/drip', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      const timer = setInterval(() => res.write('.'), 20);
      res.on('close', () => clearInterval(timer));
    });
    const hanging: CheckRendererPort = {
      renderPage: (_url, { signal }) => new Promise((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('page closed')), { once: true })),
    };
    const check = fetcher({ renderer: hanging, limits: { operationTimeoutMs: 300 } });

    await expect(check.fetch(board.url('/drip'), 'html')).rejects.toMatchObject({ limit: 'timeout', details: { timeoutMs: 300 } });
    await expect(check.render(board.url('/job'))).rejects.toMatchObject({ limit: 'timeout', details: { timeoutMs: 300 } });

    // The browser's own navigation timeout (Playwright names it TimeoutError) is the same bound.
    const navigationTimeout = Object.assign(new Error('page.goto: Timeout 300ms exceeded'), { name: 'TimeoutError' });
    const timingOut = fetcher({ renderer: { renderPage: () => Promise.reject(navigationTimeout) }, limits: { operationTimeoutMs: 300 } });
    await expect(timingOut.render(board.url('/job'))).rejects.toMatchObject({ limit: 'timeout' });
  });

  it(`keeps two checks of one host apart: never both in flight, starts at least ${PER_HOST_START_SPACING_MS} ms apart`, async () => {
    board.route('/job', page('<h1>Engineer</h1>'));
    const starts: Hit[] = [];
    const shared = recordingClient(starts);
    const first = new CheckFetcher({ http: shared });
    const second = new CheckFetcher({ http: shared });

    await Promise.all([first.fetch(board.url('/job'), 'html'), second.fetch(board.url('/job'), 'html')]);
    const [a, b] = starts;
    expect(b.at - a.at).toBeGreaterThanOrEqual(PER_HOST_START_SPACING_MS - TIMER_SLACK_MS);
    expect(board.peakByHost.get('127.0.0.1')).toBe(1);
  });

  it('reserves the host a redirect lands on, not only the one asked', async () => {
    board.route('/away', redirect(board.url('/landing', 'localhost')));
    board.route('/landing', page('<h1>Careers</h1>'));
    board.route('/other', page('x'));
    const starts: Hit[] = [];
    const shared = recordingClient(starts);
    // Another check has just started a request to localhost.
    await new CheckFetcher({ http: shared }).fetch(board.url('/other', 'localhost'), 'html');

    const result = await new CheckFetcher({ http: shared }).fetch(board.url('/away'), 'html');
    expect(result).toMatchObject({ status: 200, finalUrl: board.url('/landing', 'localhost') });
    const [other, away, landing] = starts;
    expect([other, away, landing].map((start) => `${start.host}${start.path}`)).toEqual(['localhost/other', '127.0.0.1/away', 'localhost/landing']);
    // 127.0.0.1 had no reason to wait; the hop to localhost waited for localhost's spacing.
    expect(landing.at - other.at).toBeGreaterThanOrEqual(PER_HOST_START_SPACING_MS - TIMER_SLACK_MS);
    expect(away.at - other.at).toBeLessThan(PER_HOST_START_SPACING_MS);
  });

  it('stops at cancellation: the request in flight is aborted and nothing more starts, over HTTP or in the browser', async () => {
    const held: http.ServerResponse[] = [];
    board.route('/held', (_req, res) => void held.push(res));
    board.route('/res/*', page('r'));
    let rendered = 0;
    const renderer: CheckRendererPort = {
      async renderPage(url, opts) {
        rendered += 1;
        return scriptedPage([board.url('/res/1')]).renderPage(url, opts);
      },
    };
    const controller = new AbortController();
    const check = fetcher({ renderer, signal: controller.signal });

    const inFlight = check.fetch(board.url('/held'), 'html');
    while (held.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    await expect(inFlight).rejects.toMatchObject({ name: 'AbortError' });
    await new Promise<void>((resolve) => (held[0].destroyed ? resolve() : held[0].on('close', () => resolve())));

    const hitsAtAbort = board.hits.length;
    await expect(check.fetch(board.url('/held'), 'html')).rejects.toMatchObject({ name: 'AbortError' });
    await expect(check.render(board.url('/job'), '<html></html>')).rejects.toMatchObject({ name: 'AbortError' });
    expect(rendered).toBe(0);
    expect(board.hits.length).toBe(hitsAtAbort);
    expect(check.usage()).toMatchObject({ requests: 1, browserResources: 0 });
  });

  it('cancellation mid-render refuses every resource the page still asks for', async () => {
    board.route('/res/*', page('r'));
    const controller = new AbortController();
    const asked: Array<boolean> = [];
    const renderer: CheckRendererPort = {
      async renderPage(_url, { signal, admitResource }) {
        asked.push((await admitResource(board.url('/res/1'), { signal, navigation: false })) !== null);
        controller.abort();
        asked.push((await admitResource(board.url('/res/2'), { signal, navigation: false })) !== null);
        signal.throwIfAborted();
        return { html: '', finalUrl: '' };
      },
    };
    const check = fetcher({ renderer, signal: controller.signal });

    await expect(check.render(board.url('/job'), '<html></html>')).rejects.toMatchObject({ name: 'AbortError' });
    expect(asked).toEqual([true, false]);
    expect(check.usage().browserResources).toBe(1);
  });
});
