import { LoginRateLimiter, rateLimitKey } from './login-rate-limit';

describe('LoginRateLimiter', () => {
  let now = Date.UTC(2026, 0, 1);
  const clock = () => now;
  const limits = { perAddress: 5, overall: 30, windowMs: 60_000, maxTrackedAddresses: 10_000 };

  it('an address may be wrong 5 times a minute; the wait runs until its oldest failure leaves the window', () => {
    const limiter = new LoginRateLimiter(limits, clock);
    for (let i = 0; i < 5; i++) {
      expect(limiter.addressWaitMs('203.0.113.7')).toBe(0);
      limiter.recordFailure('203.0.113.7');
      now += 1000;
    }
    // Failures at t0 … t0+4 s, now t0+5 s: the first leaves the window at t0+60 s.
    expect(limiter.addressWaitMs('203.0.113.7')).toBe(55_000);
    expect(limiter.addressWaitMs('::ffff:203.0.113.7')).toBe(55_000);
    expect(limiter.addressWaitMs('203.0.113.8')).toBe(0);
    expect(limiter.overallWaitMs()).toBe(0);
    now += 55_000;
    expect(limiter.addressWaitMs('203.0.113.7')).toBe(0);
  });

  it('30 failures from 30 addresses close the overall budget for everyone until the oldest leaves the window', () => {
    const limiter = new LoginRateLimiter(limits, clock);
    for (let i = 0; i < 30; i++) limiter.recordFailure(`198.51.100.${i}`);
    expect(limiter.overallWaitMs()).toBe(60_000);
    expect(limiter.addressWaitMs('198.51.100.1')).toBe(0);
    now += 60_000;
    expect(limiter.overallWaitMs()).toBe(0);
  });

  it('an IPv6 client is counted by its /64: rotating the interface id buys no more guesses', () => {
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:db8:1:2:bbbb:cccc:dddd:eeee')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('2001:0db8:0001:0002::')).toBe('2001:db8:1:2::/64');
    expect(rateLimitKey('::1')).toBe('0:0:0:0::/64');
    expect(rateLimitKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
    const limiter = new LoginRateLimiter(limits, clock);
    for (let i = 1; i <= 5; i++) limiter.recordFailure(`2001:db8:1:2::${i.toString(16)}`);
    expect(limiter.addressWaitMs('2001:db8:1:2:ffff::9')).toBeGreaterThan(0);
    expect(limiter.addressWaitMs('2001:db8:1:3::1')).toBe(0);
  });

  it('10,000 distinct addresses (and 10,000 more) keep memory bounded; expired entries go first, and a blocked recent address is kept', () => {
    const limiter = new LoginRateLimiter({ ...limits, maxTrackedAddresses: 1000 }, clock);
    for (let i = 0; i < 10_000; i++) {
      limiter.recordFailure(`10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`);
      if (i % 100 === 0) now += 1000; // 100 s in all: entries keep leaving the window while more arrive
      expect(limiter.trackedAddresses).toBeLessThanOrEqual(1000);
    }
    for (let i = 0; i < 5; i++) limiter.recordFailure('192.0.2.1');
    // A burst within one second: nothing has expired, so least recently failed addresses make room.
    for (let i = 0; i < 10_000; i++) limiter.recordFailure(`172.16.${(i >> 8) & 255}.${i & 255}`);
    expect(limiter.trackedAddresses).toBeLessThanOrEqual(1000);
    expect(new LoginRateLimiter(limits, clock).trackedAddresses).toBe(0);
  });
});
