/**
 * Milliseconds to wait according to a Retry-After header: delta-seconds or an HTTP-date
 * (RFC 9110 §10.2.3), measured from `now`. Undefined when the header is absent or unreadable, so
 * the caller falls back to its default cooldown instead of trusting garbage.
 */
export function parseRetryAfterMs(header: string | null | undefined, now: number): number | undefined {
  if (header === null || header === undefined) return undefined;
  const value = header.trim();
  if (value === '') return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  // Only a real HTTP-date (it names a weekday or month); Date.parse would also take "-5" or "2".
  if (!/[a-z]{3}/i.test(value)) return undefined;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

/**
 * Delay before retry number `retry` (1 = first retry): exponential, capped, with "equal jitter" —
 * half fixed, half random — so retries still grow but hosts hit by many clients at once see them
 * spread out.
 */
export function backoffDelayMs(retry: number, policy: BackoffPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + (ceiling / 2) * random());
}
