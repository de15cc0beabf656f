import { backoffDelayMs, parseRetryAfterMs } from './retry.rules';

describe('parseRetryAfterMs', () => {
  const now = Date.UTC(2026, 0, 1, 12, 0, 0);

  it('reads delta-seconds', () => {
    expect(parseRetryAfterMs('120', now)).toBe(120_000);
    expect(parseRetryAfterMs(' 0 ', now)).toBe(0);
  });

  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfterMs('Thu, 01 Jan 2026 11:00:00 GMT', now)).toBe(0);
  });

  it('returns undefined for absent or unreadable values', () => {
    expect(parseRetryAfterMs(null, now)).toBeUndefined();
    expect(parseRetryAfterMs(undefined, now)).toBeUndefined();
    expect(parseRetryAfterMs('', now)).toBeUndefined();
    expect(parseRetryAfterMs('soon', now)).toBeUndefined();
    expect(parseRetryAfterMs('-5', now)).toBeUndefined();
    expect(parseRetryAfterMs('1.5', now)).toBeUndefined();
  });
});

describe('backoffDelayMs', () => {
  const policy = { baseMs: 500, maxMs: 4000 };

  it('doubles per retry between half and all of the ceiling, depending on jitter', () => {
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, policy, () => 0))).toEqual([250, 500, 1000]);
    expect([1, 2, 3].map((retry) => backoffDelayMs(retry, policy, () => 0.999999))).toEqual([500, 1000, 2000]);
  });

  it('never exceeds maxMs', () => {
    expect(backoffDelayMs(20, policy, () => 0.999999)).toBe(4000);
    expect(backoffDelayMs(20, policy, () => 0)).toBe(2000);
  });
});
