import { isIP } from 'node:net';

/**
 * How many wrong tokens the API hears before it stops checking them. The token has no minimum strength
 * (a person picks it), so without a bound a login form or a Bearer header answers guesses as fast as
 * the network carries them.
 */
export interface LoginRateLimits {
  /** Wrong tokens one client address may present per window; then 429 until the oldest leaves the window. */
  perAddress: number;
  /** Wrong tokens from all addresses together per window: rotating addresses does not buy more guesses at the login form. */
  overall: number;
  windowMs: number;
  /** Addresses remembered at most: an attacker with many addresses must not grow the API's memory. */
  maxTrackedAddresses: number;
}

export const DEFAULT_LOGIN_RATE_LIMITS: LoginRateLimits = { perAddress: 5, overall: 30, windowMs: 60_000, maxTrackedAddresses: 10_000 };

/**
 * The key an address is counted under: IPv4 as is (IPv4-mapped IPv6 unwrapped), IPv6 by its /64 —
 * one host usually holds a whole /64, so counting single IPv6 addresses would hand it 2^64 budgets.
 */
export function rateLimitKey(remoteAddress: string | undefined): string {
  const address = (remoteAddress ?? '').replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');
  if (isIP(address) !== 6) return address;
  const [head, tail = ''] = address.toLowerCase().split('%')[0].split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups.slice(0, 4).map((g) => g.replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

/**
 * The last `limit` failure times, oldest first: a sliding window whose wait is exact (until the
 * oldest failure leaves the window) in memory bounded by the limit.
 */
class FailureLog {
  private readonly times: number[] = [];

  constructor(private readonly limit: number) {}

  add(at: number): void {
    this.times.push(at);
    if (this.times.length > this.limit) this.times.shift();
  }

  /** Milliseconds until one more failure may be presented (0: now). */
  waitMs(now: number, windowMs: number): number {
    if (this.times.length < this.limit) return 0;
    return Math.max(0, this.times[0] + windowMs - now);
  }

  /** Whether every failure has left the window (the entry can go). */
  expired(now: number, windowMs: number): boolean {
    return this.times.length === 0 || this.times[this.times.length - 1] + windowMs <= now;
  }
}

/**
 * Counts wrong tokens per client address and overall. It only ever sees failures: a request with a
 * valid credential never reaches it, so the user's own scripts and browser cost nothing here.
 */
export class LoginRateLimiter {
  private readonly byAddress = new Map<string, FailureLog>();
  private readonly overallLog: FailureLog;

  constructor(
    private readonly limits: LoginRateLimits = DEFAULT_LOGIN_RATE_LIMITS,
    private readonly now: () => number = Date.now,
  ) {
    this.overallLog = new FailureLog(limits.overall);
  }

  /** Milliseconds until this address may present a token again (0: now). */
  addressWaitMs(remoteAddress: string | undefined): number {
    return this.byAddress.get(rateLimitKey(remoteAddress))?.waitMs(this.now(), this.limits.windowMs) ?? 0;
  }

  /** Milliseconds until anyone may present a token again (0: now). */
  overallWaitMs(): number {
    return this.overallLog.waitMs(this.now(), this.limits.windowMs);
  }

  recordFailure(remoteAddress: string | undefined): void {
    const now = this.now();
    const key = rateLimitKey(remoteAddress);
    let log = this.byAddress.get(key);
    if (log) this.byAddress.delete(key); // re-inserted below: the map's order is least recently failed first
    else {
      if (this.byAddress.size >= this.limits.maxTrackedAddresses) this.evict(now);
      log = new FailureLog(this.limits.perAddress);
    }
    log.add(now);
    this.byAddress.set(key, log);
    this.overallLog.add(now);
  }

  get trackedAddresses(): number {
    return this.byAddress.size;
  }

  /**
   * Full: drop the addresses whose failures all left the window; if that is not a tenth, drop the
   * least recently failed ones too (an attacker holding that many addresses is held by the overall
   * bound at the login form). Freeing a tenth at once keeps the sweep off every request.
   */
  private evict(now: number): void {
    const target = Math.floor(this.limits.maxTrackedAddresses * 0.9);
    for (const [key, log] of this.byAddress) if (log.expired(now, this.limits.windowMs)) this.byAddress.delete(key);
    for (const key of this.byAddress.keys()) {
      if (this.byAddress.size <= target) break;
      this.byAddress.delete(key);
    }
  }
}
