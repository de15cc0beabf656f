import type { LookupAddress } from 'node:dns';
import { gzipSync } from 'node:zlib';
import { AddressGuard, refusedAddressClass } from './address-guard.rules';
import { HostPolicyHttpClient } from './host-policy.http-client';
import { HostRefusedError, NetworkError } from './http.errors';
import { TestServer } from './testing/test-server.testing';

describe('refusedAddressClass', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['169.254.1.1', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['100.64.0.1', 'cgnat'],
    ['100.127.255.254', 'cgnat'],
    ['169.254.169.254', 'metadata'],
    ['fd00:ec2::254', 'metadata'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.0.0.1', 'private'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::7f00:1', 'loopback'],
    ['2002:c0a8:0101::1', 'private'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    // #39: accepted at save before, each reaching this machine or nothing a board lives on.
    ['::ffff:0:7f00:1', 'loopback'],
    ['::ffff:0:127.0.0.1', 'loopback'],
    ['64:ff9b:1::7f00:1', 'loopback'],
    ['fec0::1', 'private'],
    ['100::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['203.0.113.9', 'reserved'],
  ])('%s is %s', (address, kind) => {
    expect(refusedAddressClass(address)).toBe(kind);
  });

  it.each(['93.184.216.34', '172.32.0.1', '100.128.0.1', '2606:4700::1111', '::ffff:93.184.216.34', '8.8.8.8'])('%s is public', (address) => {
    expect(refusedAddressClass(address)).toBeNull();
  });
});

describe('AddressGuard', () => {
  const resolveTo = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

  it('refuses a name that resolves to loopback, and one with ANY private address among public ones', async () => {
    await expect(new AddressGuard({ resolve: resolveTo('127.0.0.1') }).admit('http://board.example/x')).rejects.toMatchObject({
      code: 'host_refused_private_address',
      host: 'board.example',
      address: '127.0.0.1',
      retryable: false,
    });
    await expect(new AddressGuard({ resolve: resolveTo('93.184.216.34', '10.0.0.7') }).admit('http://mixed.example/')).rejects.toMatchObject({ address: '10.0.0.7' });
    await expect(new AddressGuard({ resolve: resolveTo('93.184.216.34') }).admit('http://public.example/')).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });

  it('refuses metadata names and literals without asking DNS; allows exactly the listed host or literal', async () => {
    const resolve = jest.fn(resolveTo('127.0.0.1'));
    const guard = new AddressGuard({ resolve, allowedPrivateHosts: ['Board.LAN', '::1'] });
    await expect(guard.admit('http://metadata.google.internal/computeMetadata/v1/')).rejects.toMatchObject({ addressClass: 'metadata' });
    await expect(guard.admit('http://169.254.169.254/latest/meta-data/')).rejects.toMatchObject({ addressClass: 'metadata' });
    await expect(guard.admit('http://[::ffff:7f00:1]:8080/')).rejects.toBeInstanceOf(HostRefusedError);
    expect(resolve).not.toHaveBeenCalled();
    await expect(guard.admit('http://board.lan:9000/jobs')).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
    await expect(guard.admit('http://[::1]:9000/')).resolves.toEqual([{ address: '::1', family: 6 }]);
    // Exact match only: a sub-domain of a listed host is not listed.
    await expect(guard.admit('http://evil.board.lan/')).rejects.toBeInstanceOf(HostRefusedError);
  });

  it('requests to one host arriving together share one lookup and leave the guard in arrival order; the next one resolves afresh', async () => {
    const answers: Array<() => void> = [];
    const resolve = jest.fn((host: string) => new Promise<LookupAddress[]>((done) => answers.push(() => done([{ address: host === 'a.example' ? '93.184.216.34' : '93.184.216.35', family: 4 }]))));
    const guard = new AddressGuard({ resolve });
    const order: string[] = [];
    const admitted = ['a.example/1', 'b.example/1', 'a.example/2', 'b.example/2', 'a.example/3'].map((path) =>
      guard.admit(`http://${path}`).then(() => order.push(path)),
    );
    expect(resolve).toHaveBeenCalledTimes(2);
    // The hosts' lookups finish in the opposite order; within each host the requests stay in order.
    answers[1]();
    answers[0]();
    await Promise.all(admitted);
    expect(order.filter((p) => p.startsWith('a.'))).toEqual(['a.example/1', 'a.example/2', 'a.example/3']);
    expect(order.filter((p) => p.startsWith('b.'))).toEqual(['b.example/1', 'b.example/2']);
    const again = guard.admit('http://a.example/4');
    expect(resolve).toHaveBeenCalledTimes(3);
    answers[2]();
    await expect(again).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
  });
});

describe('HostPolicyHttpClient address rule (real loopback server)', () => {
  let server: TestServer;
  const fast = { minSpacingMs: 0, backoffBaseMs: 1, backoffMaxMs: 2, respectRobots: false } as const;

  beforeEach(async () => {
    server = new TestServer();
    await server.start();
    server.route('/ok', (_req, res) => res.end('{"ok":true}'));
  });
  afterEach(async () => {
    await server.stop();
  });

  it('refuses a loopback URL before any request (robots.txt included) and does not retry', async () => {
    const client = new HostPolicyHttpClient({ minSpacingMs: 0, respectRobots: true });
    const error = await client.getJson(server.url('/ok')).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(HostRefusedError);
    expect((error as HostRefusedError).message).toMatch(/127\.0\.0\.1.*loopback.*allowed_private_hosts/);
    expect(server.hits).toEqual([]);
  });

  it('refuses a host NAME resolving to loopback (resolver injected) and lets a listed one through', async () => {
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const refused = new HostPolicyHttpClient({ ...fast, resolve });
    const port = new URL(server.url('/')).port;
    await expect(refused.getJson(`http://board.example:${port}/ok`)).rejects.toBeInstanceOf(HostRefusedError);
    expect(server.hits).toEqual([]);
    // Listed: the request connects to the address the guard resolved (the system resolver does
    // not know board.example), which is what pins the connection to the checked address.
    const allowed = new HostPolicyHttpClient({ ...fast, resolve, allowedPrivateHosts: ['board.example'] });
    await expect(allowed.getJson(`http://board.example:${port}/ok`)).resolves.toEqual({ ok: true });
    expect(server.hits.map((h) => h.path)).toEqual(['/ok']);
  });

  it('checks again at connect time: a name that rebinds to loopback after the first check is refused, not fetched', async () => {
    const answers = ['93.184.216.34', '127.0.0.1'];
    let calls = 0;
    const resolve = async () => [{ address: answers[Math.min(calls++, answers.length - 1)], family: 4 }];
    const client = new HostPolicyHttpClient({ ...fast, resolve });
    const port = new URL(server.url('/')).port;
    await expect(client.getJson(`http://rebind.example:${port}/ok`)).rejects.toMatchObject({ code: 'host_refused_private_address', address: '127.0.0.1' });
    expect(calls).toBe(2);
    expect(server.hits).toEqual([]);
  });

  it('refuses a redirect hop to a loopback address from a listed host; the hop is never requested', async () => {
    server.route('/jump', (_req, res) => {
      res.writeHead(302, { location: server.url('/secret') });
      res.end();
    });
    server.route('/secret', (_req, res) => res.end('{"secret":true}'));
    const client = new HostPolicyHttpClient({ ...fast, allowedPrivateHosts: ['localhost'] });
    const exchange = client.exchange(server.url('/jump', 'localhost'), { accept: 'application/json' });
    await expect(exchange).rejects.toMatchObject({ code: 'host_refused_private_address', host: '127.0.0.1' });
    expect(server.hits.map((h) => h.path)).toEqual(['/jump']);
  });

  it('the pinned transport decodes gzip and still reports connection failures as network errors', async () => {
    server.route('/gz', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(gzipSync(JSON.stringify({ zipped: true })));
    });
    const client = new HostPolicyHttpClient({ ...fast, maxAttempts: 1, allowedPrivateHosts: ['127.0.0.1'] });
    await expect(client.getJson(server.url('/gz'))).resolves.toEqual({ zipped: true });
    await expect(client.getJson('http://127.0.0.1:1/none')).rejects.toBeInstanceOf(NetworkError);
  });
});
