import type { LookupAddress } from 'node:dns';
import * as http from 'node:http';
import * as net from 'node:net';
import type { Duplex } from 'node:stream';
import { type AddressGuard, pinnedLookup } from './address-guard.rules';

/** Ports any host may be reached on: the web's own. */
const WEB_PORTS: readonly number[] = [80, 443];

/** Request headers that describe the hop to the proxy, not the request (RFC 9110 §7.6.1). */
const HOP_HEADERS = new Set(['connection', 'keep-alive', 'proxy-connection', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'upgrade']);

export interface GuardedProxyOptions {
  /** The crawler's address rule (allowed_private_hosts): the same guard the HTTP client uses. */
  guard: AddressGuard;
  /**
   * Ports an unlisted host may be reached on (default 80 and 443). A host in allowed_private_hosts
   * may use any port (the user's own services and the test simulators listen anywhere); a stranger's
   * page has no business making the browser open SMTP, Redis or SSH connections on public hosts.
   */
  webPorts?: readonly number[];
  /** A socket (either side) with no traffic for this long is closed (default 60 s). */
  idleTimeoutMs?: number;
  /** Connecting to the admitted address (default 15 s). */
  connectTimeoutMs?: number;
  /**
   * Hears of each refused request: host, port and why — never the path, query or body, which may
   * carry tokens (an apply link's) or the user's answers.
   */
  onRefused?: (refusal: { host: string; port: number; reason: string }) => void;
}

/**
 * A forward proxy Chromium is launched behind (`--proxy-server`, with `<-loopback>` so loopback
 * targets are proxied too) that applies the crawler's address rule (#15) to every TCP connection the
 * browser makes: plain-HTTP requests in absolute form, and CONNECT tunnels (HTTPS, WebSockets; the
 * proxy only picks the destination, it never sees inside TLS). It resolves the host through the
 * AddressGuard and connects ONLY to the addresses the guard admitted, so Chromium's own DNS lookup —
 * which a rebinding host could answer differently a moment after a check — is never used. Every
 * redirect hop the browser follows is a new request to the proxy, whatever the method, which the
 * route-level guard cannot see for a continued POST. Refusals are answered 403 and never sent on.
 * Bodies are streamed both ways (pipe: backpressure, no buffering), and idle sockets time out.
 * In-process (an http.Server on 127.0.0.1, port 0): no child process to track or clean up.
 */
export class GuardedProxy {
  private readonly sockets = new Set<Duplex>();
  private closed = false;

  private constructor(
    private readonly server: http.Server,
    private readonly options: GuardedProxyOptions,
    /** The port it listens on, on 127.0.0.1. */
    readonly port: number,
  ) {}

  /** Starts listening on 127.0.0.1 (a free port): only this machine's browser can use it. */
  static async start(options: GuardedProxyOptions): Promise<GuardedProxy> {
    const server = http.createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        server.off('error', reject);
        resolve();
      });
    });
    const proxy = new GuardedProxy(server, options, (server.address() as net.AddressInfo).port);
    proxy.attach();
    return proxy;
  }

  /** `http://127.0.0.1:<port>`: Playwright's `proxy.server`. */
  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The Chromium switches for a browser spawned directly (Playwright adds the same for `proxy`). */
  chromiumArgs(): string[] {
    return [`--proxy-server=${this.url}`, '--proxy-bypass-list=<-loopback>'];
  }

  /** Stops listening and ends every open connection and tunnel. Idempotent. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const closing = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    this.server.closeAllConnections();
    await closing;
  }

  private get idleMs(): number {
    return this.options.idleTimeoutMs ?? 60_000;
  }

  private attach(): void {
    const track = (socket: Duplex): void => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    };
    this.server.on('connection', (socket: net.Socket) => {
      track(socket);
      socket.setTimeout(this.idleMs, () => socket.destroy());
    });
    // Node's own request timeout would cut a slow upload short; the idle timeout above covers a
    // stalled peer.
    this.server.requestTimeout = 0;
    this.server.headersTimeout = 30_000;
    this.server.keepAliveTimeout = 5_000;
    this.server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => void this.forward(req, res, track));
    this.server.on('connect', (req: http.IncomingMessage, socket: Duplex, head: Buffer) => void this.tunnel(req, socket, head, track));
    // A WebSocket upgrade sent in absolute form (Chromium tunnels them with CONNECT instead).
    this.server.on('upgrade', (_req: http.IncomingMessage, socket: Duplex) => {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
  }

  /**
   * Checks host and port; returns the addresses to connect to, or null after reporting the refusal.
   * A host that cannot be resolved is refused too: "could not check" must not mean "allowed".
   */
  private async admit(url: URL, port: number): Promise<LookupAddress[] | null> {
    const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
    const refuse = (reason: string): null => {
      this.options.onRefused?.({ host, port, reason });
      return null;
    };
    if (!(this.options.webPorts ?? WEB_PORTS).includes(port) && !this.options.guard.isAllowedHost(host)) return refuse(`port ${port} is not a web port`);
    try {
      return await this.options.guard.admit(url);
    } catch (err) {
      return refuse(err instanceof Error ? err.message : String(err));
    }
  }

  /** A plain-HTTP request in absolute form: admitted, then sent to the admitted address, streamed. */
  private async forward(req: http.IncomingMessage, res: http.ServerResponse, track: (socket: Duplex) => void): Promise<void> {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
      if (url.protocol !== 'http:') throw new Error('not http');
    } catch {
      // Origin-form requests (someone talking to the proxy as if it were a server) and other schemes.
      res.writeHead(400, { 'content-length': '0', connection: 'close' }).end();
      req.resume();
      return;
    }
    const port = Number(url.port || 80);
    // The guard sees the origin only: its refusal message must not carry the path's tokens.
    const addresses = await this.admit(new URL(url.origin), port);
    if (!addresses) {
      res.writeHead(403, { 'content-type': 'text/plain', connection: 'close' }).end('refused by the address rule');
      req.resume();
      return;
    }
    const headers: http.OutgoingHttpHeaders = {};
    for (const [key, value] of Object.entries(req.headers)) if (value !== undefined && !HOP_HEADERS.has(key)) headers[key] = value;
    const upstream = http.request({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      method: req.method,
      path: `${url.pathname}${url.search}`,
      headers,
      lookup: pinnedLookup(addresses) as unknown as http.RequestOptions['lookup'],
      // No connection reuse: each request is admitted on its own, pinned to what was admitted.
      agent: false,
      timeout: this.options.connectTimeoutMs ?? 15_000,
    });
    upstream.on('socket', (socket: net.Socket) => {
      track(socket);
      socket.once('connect', () => {
        upstream.setTimeout(0);
        socket.setTimeout(this.idleMs, () => socket.destroy());
      });
    });
    upstream.on('timeout', () => upstream.destroy(new Error('connect timeout')));
    upstream.on('response', (answer) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [key, value] of Object.entries(answer.headers)) if (value !== undefined && !HOP_HEADERS.has(key)) out[key] = value;
      res.writeHead(answer.statusCode ?? 502, answer.statusMessage, out);
      answer.pipe(res);
      answer.on('error', () => res.destroy());
    });
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-length': '0', connection: 'close' }).end();
      else res.destroy();
    });
    // The browser went away (or its socket idled out): stop the upstream too.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }

  /** CONNECT host:port: admitted, then a raw TCP tunnel to the admitted address. */
  private async tunnel(req: http.IncomingMessage, socket: Duplex, head: Buffer, track: (socket: Duplex) => void): Promise<void> {
    track(socket);
    socket.on('error', () => undefined);
    const target = /^(\[[^\]]+\]|[^:[\]]+):(\d{1,5})$/.exec(req.url ?? '');
    const port = Number(target?.[2]);
    if (!target || port < 1 || port > 65_535) {
      socket.end('HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
      return;
    }
    const url = new URL(`https://${target[1]}:${port}/`);
    const addresses = await this.admit(url, port);
    if (!addresses) {
      socket.end('HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\nrefused by the address rule');
      return;
    }
    if (socket.destroyed) return;
    const upstream = net.connect({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port,
      lookup: pinnedLookup(addresses) as unknown as net.LookupFunction,
      autoSelectFamily: true,
      autoSelectFamilyAttemptTimeout: 2_500,
    });
    track(upstream);
    upstream.setTimeout(this.options.connectTimeoutMs ?? 15_000, () => upstream.destroy(new Error('connect timeout')));
    let established = false;
    upstream.once('connect', () => {
      established = true;
      upstream.setTimeout(this.idleMs, () => upstream.destroy());
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length > 0) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    // Before the tunnel stands the browser gets an answer; after, the tunnel just ends.
    upstream.on('error', () => {
      if (!established) socket.end('HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\nconnection: close\r\n\r\n');
    });
    upstream.on('close', () => {
      if (established) socket.destroy();
    });
    socket.on('close', () => upstream.destroy());
  }
}
