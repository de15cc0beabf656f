import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Hit {
  /** Host header without the port: `127.0.0.1` or `localhost`. */
  host: string;
  path: string;
  /** Order of arrival across all hosts, from 0. */
  seq: number;
  /** `now()` of the spec's clock at arrival (a fake clock's time in fake-clock specs). */
  at: number;
}

export type Route = (req: http.IncomingMessage, res: http.ServerResponse, hit: Hit) => void;

/**
 * A local HTTP server that records what actually reached it: every request, its host, the clock
 * time at arrival and concurrency per host. Requests on held routes wait until the spec releases
 * them, which lets a spec observe "in flight" without any sleeps.
 */
export class TestServer {
  readonly hits: Hit[] = [];
  readonly peakByHost = new Map<string, number>();
  peakTotal = 0;
  private readonly inFlightByHost = new Map<string, number>();
  private inFlightTotal = 0;
  private readonly routes = new Map<string, Route>();
  private readonly held: { hit: Hit; release: () => void }[] = [];
  private readonly server: http.Server;
  private port = 0;

  constructor(private readonly now: () => number = () => Date.now()) {
    this.server = http.createServer((req, res) => this.handle(req, res));
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  async stop(): Promise<void> {
    for (const entry of this.held.splice(0)) entry.release();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  url(path: string, host: '127.0.0.1' | 'localhost' = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  /** Routes by path (query included) and, optionally, host: `localhost/robots.txt` beats `/robots.txt`. */
  route(path: string, handler: Route, host?: string): void {
    this.routes.set(host ? `${host}${path}` : path, handler);
  }

  /** Holds requests to `path` until `releaseHeld` answers them with `body`. */
  holdRoute(path: string, body = 'released', host?: string): void {
    this.route(
      path,
      (_req, res, hit) => {
        this.held.push({ hit, release: () => res.end(body) });
      },
      host,
    );
  }

  heldHits(): Hit[] {
    return this.held.map((entry) => entry.hit);
  }

  releaseHeld(): void {
    for (const entry of this.held.splice(0)) entry.release();
  }

  hitsFor(path: string, host?: string): Hit[] {
    return this.hits.filter((hit) => hit.path === path && (host === undefined || hit.host === host));
  }

  private handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const path = req.url ?? '/';
    const hit: Hit = { host, path, seq: this.hits.length, at: this.now() };
    this.hits.push(hit);

    const hostCount = (this.inFlightByHost.get(host) ?? 0) + 1;
    this.inFlightByHost.set(host, hostCount);
    this.peakByHost.set(host, Math.max(this.peakByHost.get(host) ?? 0, hostCount));
    this.inFlightTotal += 1;
    this.peakTotal = Math.max(this.peakTotal, this.inFlightTotal);
    let closed = false;
    res.on('close', () => {
      if (closed) return;
      closed = true;
      this.inFlightByHost.set(host, (this.inFlightByHost.get(host) ?? 1) - 1);
      this.inFlightTotal -= 1;
    });

    const route = this.routes.get(`${host}${path}`) ?? this.routes.get(path);
    if (route) {
      route(req, res, hit);
      return;
    }
    res.statusCode = 404;
    res.end('not found');
  }
}

/** Polls until `condition` holds; fails (rather than hangs) if it never does. */
export async function waitFor(condition: () => boolean, what = 'condition'): Promise<void> {
  for (let i = 0; i < 2000; i += 1) {
    if (condition()) return;
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  throw new Error(`timed out waiting for ${what}`);
}
