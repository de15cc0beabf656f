import type { LookupAddress } from 'node:dns';
import * as http from 'node:http';
import type { Socket } from 'node:net';
import { AddressGuard } from './address-guard.rules';
import { GuardedProxy } from './guarded-proxy';
import { startCountingServer, type CountingServer } from './testing/counting-server.testing';

/** Answers with who it is and how many body bytes it got. */
const echo = (host: string) => (_req: http.IncomingMessage, res: http.ServerResponse, bytes: number) => {
  res.setHeader('content-type', 'text/plain');
  res.end(`${host} got ${bytes}`);
};
const countingServer = (host: string, port = 0) => startCountingServer(host, echo(host), port);

/** A plain-HTTP request through the proxy, in absolute form, as a browser sends it. */
function viaProxy(proxy: GuardedProxy, url: string, options: { method?: string; body?: Buffer } = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const req = http.request({ host: '127.0.0.1', port: proxy.port, path: url, method: options.method ?? 'GET', headers: { host: target.host }, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A CONNECT through the proxy: its status, and the tunnel when one was opened. */
function connectVia(proxy: GuardedProxy, authority: string): Promise<{ status: number; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port: proxy.port, method: 'CONNECT', path: authority, agent: false });
    req.on('connect', (res: http.IncomingMessage, socket: Socket) => resolve({ status: res.statusCode ?? 0, socket }));
    req.on('response', (res: http.IncomingMessage) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0, socket: res.socket });
    });
    req.on('error', reject);
    req.end();
  });
}

/** One HTTP/1.1 request spoken through an open tunnel; resolves with the raw answer. */
function throughTunnel(socket: Socket, path: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('end', () => resolve(text));
    socket.write(`GET ${path} HTTP/1.1\r\nhost: tunnel\r\nconnection: close\r\n\r\n`);
  });
}

describe('GuardedProxy (#15: the browser behind the address rule)', () => {
  const proxies: GuardedProxy[] = [];
  const servers: CountingServer[] = [];
  const start = async (guard: AddressGuard, refusals?: string[]) => {
    const proxy = await GuardedProxy.start({ guard, onRefused: ({ host, port, reason }) => refusals?.push(`${host}:${port} ${reason}`) });
    proxies.push(proxy);
    return proxy;
  };
  afterEach(async () => {
    await Promise.all(proxies.splice(0).map((p) => p.close()));
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  it('forwards a listed host, any port, streaming a large upload and its answer', async () => {
    const target = await countingServer('127.0.0.1');
    servers.push(target);
    const proxy = await start(new AddressGuard({ allowedPrivateHosts: ['127.0.0.1'] }));
    const upload = Buffer.alloc(5 * 1024 * 1024, 7);
    const answer = await viaProxy(proxy, `http://127.0.0.1:${target.port}/apply?x=1`, { method: 'POST', body: upload });
    expect(answer).toEqual({ status: 200, body: `127.0.0.1 got ${upload.length}` });
    expect(target.hits).toEqual(['POST /apply?x=1']);

    const tunnel = await connectVia(proxy, `127.0.0.1:${target.port}`);
    expect(tunnel.status).toBe(200);
    // The tunnel reaches the server: speak HTTP through it.
    expect(await throughTunnel(tunnel.socket, '/through')).toMatch(/^HTTP\/1.1 200/);
    expect(target.hits).toEqual(['POST /apply?x=1', 'GET /through']);
  });

  it('refuses an unlisted loopback or private host, plain and CONNECT, and nothing reaches it', async () => {
    const target = await countingServer('127.0.0.1');
    servers.push(target);
    const refusals: string[] = [];
    const proxy = await start(new AddressGuard({ resolve: async () => [{ address: '10.0.0.7', family: 4 }] }), refusals);
    expect((await viaProxy(proxy, `http://127.0.0.1:${target.port}/`, { method: 'POST', body: Buffer.from('secret=1') })).status).toBe(403);
    expect((await connectVia(proxy, `127.0.0.1:${target.port}`)).status).toBe(403);
    expect((await viaProxy(proxy, 'http://intranet.example/reset?token=t0ps3cret')).status).toBe(403);
    expect((await connectVia(proxy, 'intranet.example:443')).status).toBe(403);
    expect((await connectVia(proxy, '[::ffff:127.0.0.1]:443')).status).toBe(403);
    expect(target.connections()).toBe(0);
    // Refusals name host, port and rule, never the path or body.
    expect(refusals).toHaveLength(5);
    expect(refusals.join('\n')).not.toMatch(/secret|reset/);
    expect(refusals[2]).toMatch(/^intranet\.example:80 .*10\.0\.0\.7/);
  });

  it('refuses a non-web port of an unlisted public host without resolving it', async () => {
    const asked: string[] = [];
    const refusals: string[] = [];
    const proxy = await start(new AddressGuard({ resolve: async (host) => (asked.push(host), [{ address: '93.184.216.34', family: 4 }]) }), refusals);
    expect((await connectVia(proxy, 'mail.example:25')).status).toBe(403);
    expect((await viaProxy(proxy, 'http://redis.example:6379/')).status).toBe(403);
    expect(asked).toEqual([]);
    expect(refusals).toEqual(['mail.example:25 port 25 is not a web port', 'redis.example:6379 port 6379 is not a web port']);
  });

  it('connects to the address it checked only: a name that re-resolves elsewhere (rebinding) is never looked up again', async () => {
    // One port on two loopback addresses: the checked one and the one the name "rebinds" to.
    const checked = await countingServer('127.0.0.1');
    const rebound = await countingServer('127.0.0.2', checked.port);
    servers.push(checked, rebound);
    let lookups = 0;
    // The first answer is the one checked; every later answer is another address.
    const resolve = async (): Promise<LookupAddress[]> => [{ address: lookups++ === 0 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const proxy = await start(new AddressGuard({ allowedPrivateHosts: ['board.test'], resolve }));
    expect(await viaProxy(proxy, `http://board.test:${checked.port}/jobs`)).toEqual({ status: 200, body: '127.0.0.1 got 0' });
    expect(lookups).toBe(1);
    expect(rebound.connections()).toBe(0);
    // CONNECT: a fresh check (now 127.0.0.2), and the tunnel goes there — where the check said.
    const tunnel = await connectVia(proxy, `board.test:${checked.port}`);
    expect(tunnel.status).toBe(200);
    expect(await throughTunnel(tunnel.socket, '/tunnelled')).toMatch(/127\.0\.0\.2 got 0/);
    expect(lookups).toBe(2);
    expect(checked.hits).toEqual(['GET /jobs']);
    expect(rebound.hits).toEqual(['GET /tunnelled']);
  });

  it('ends a tunnel that carries nothing for idleTimeoutMs (both sides)', async () => {
    const target = await countingServer('127.0.0.1');
    servers.push(target);
    const proxy = await GuardedProxy.start({ guard: new AddressGuard({ allowedPrivateHosts: ['127.0.0.1'] }), idleTimeoutMs: 200 });
    proxies.push(proxy);
    const tunnel = await connectVia(proxy, `127.0.0.1:${target.port}`);
    expect(tunnel.status).toBe(200);
    // No deadline asserted: the tunnel closing at all (jest's generous test timeout) is the point.
    await new Promise((resolve) => tunnel.socket.once('close', resolve));
    expect(target.connections()).toBe(1);
  });

  it('closes open tunnels on close()', async () => {
    const target = await countingServer('127.0.0.1');
    servers.push(target);
    const proxy = await start(new AddressGuard({ allowedPrivateHosts: ['127.0.0.1'] }));
    const tunnel = await connectVia(proxy, `127.0.0.1:${target.port}`);
    const ended = new Promise((resolve) => tunnel.socket.once('close', resolve));
    await proxy.close();
    await ended;
    await proxy.close();
  });
});
