import { HostPolicyHttpClient } from './host-policy.http-client';
import { FakeClock } from './testing/fake-clock.testing';

/** The scripted hosts do not exist: the address rule is told they are public instead of asking DNS. */
const PUBLIC = async () => [{ address: '93.184.216.34', family: 4 }];

const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A fetch that answers from a script and records each call with the clock time it started. */
function scriptedFetch(clock: FakeClock, answer: (url: string) => number) {
  const calls: Array<{ url: string; at: number }> = [];
  const fetch = (async (input: string | URL | Request) => {
    const url = String(input);
    calls.push({ url, at: clock.now() });
    return new Response(url.endsWith('/robots.txt') ? 'not here' : '{}', { status: answer(url) });
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const MIN = 60_000;

describe('HostPolicyHttpClient: bounded host state', () => {
  it('forgets the gates of hosts idle past hostIdleEvictMs', async () => {
    const clock = new FakeClock(0);
    const { fetch } = scriptedFetch(clock, (url) => (url.endsWith('/robots.txt') ? 404 : 200));
    const client = new HostPolicyHttpClient({ clock, fetch, resolve: PUBLIC, minSpacingMs: 0, robotsTtlMs: 5 * MIN, hostIdleEvictMs: 10 * MIN });
    for (let i = 0; i < 20; i++) await client.getJson(`http://h${i}.test/jobs`);
    expect(Object.keys(client.stats())).toHaveLength(20);
    clock.advance(11 * MIN);
    await client.getJson('http://fresh.test/jobs');
    expect(Object.keys(client.stats())).toEqual(['fresh.test:80']);
  });

  it('a host in cooldown keeps its gate past the idle time, so the cooldown still holds', async () => {
    const clock = new FakeClock(0);
    const { calls, fetch } = scriptedFetch(clock, (url) => (url.endsWith('/robots.txt') ? 404 : url.includes('busy') && clock.now() === 0 ? 503 : 200));
    const client = new HostPolicyHttpClient({ clock, fetch, resolve: PUBLIC, minSpacingMs: 0, maxAttempts: 1, defaultCooldownMs: 20 * MIN, hostIdleEvictMs: 10 * MIN });
    await expect(client.getJson('http://busy.test/a')).rejects.toMatchObject({ status: 503 });
    clock.advance(11 * MIN);
    await client.getJson('http://other.test/a'); // sweeps
    expect(client.stats()['busy.test:80']).toMatchObject({ cooldownUntil: 20 * MIN });
    const again = client.getJson('http://busy.test/b');
    await flush();
    clock.advance(9 * MIN - 1);
    await flush();
    expect(calls.filter((c) => c.url === 'http://busy.test/b')).toEqual([]);
    clock.advance(1);
    await again;
    expect(calls.filter((c) => c.url === 'http://busy.test/b')).toEqual([{ url: 'http://busy.test/b', at: 20 * MIN }]);
  });

  it('keeps at most maxRobotsEntries robots verdicts: the oldest is fetched again, a recent one is not', async () => {
    const clock = new FakeClock(0);
    const { calls, fetch } = scriptedFetch(clock, (url) => (url.endsWith('/robots.txt') ? 404 : 200));
    const client = new HostPolicyHttpClient({ clock, fetch, resolve: PUBLIC, minSpacingMs: 0, maxRobotsEntries: 2 });
    for (const host of ['a', 'b', 'c', 'c', 'a']) await client.getJson(`http://${host}.test/x`);
    const robots = calls.filter((c) => c.url.endsWith('/robots.txt')).map((c) => c.url);
    expect(robots).toEqual(['http://a.test/robots.txt', 'http://b.test/robots.txt', 'http://c.test/robots.txt', 'http://a.test/robots.txt']);
  });
});
