/**
 * The one HTTP surface source adapters and enrichment see. Adapters depend on this interface, not on
 * `HostPolicyHttpClient`, so their tests can hand in a stub and production code cannot bypass the
 * shared host policy by calling `fetch` itself.
 */
export interface HttpClient {
  getJson<T = unknown>(url: string, opts?: { signal?: AbortSignal }): Promise<T>;
  getText(url: string, opts?: { signal?: AbortSignal }): Promise<string>;
}

/** Per-host counters from `HostPolicyHttpClient.stats()`; the key is `hostname:port`. */
export interface HostStats {
  /** Requests started against the host: robots.txt fetches, retries and redirect hops included. */
  requests: number;
  /** robots.txt fetches among `requests`. */
  robotsFetches: number;
  inFlight: number;
  peakInFlight: number;
  /** Callers waiting for a slot (spacing, cooldown or the in-flight limit). */
  queued: number;
  /** Epoch ms until which the host is cooling down after a 429/503; null when it is not. */
  cooldownUntil: number | null;
}
