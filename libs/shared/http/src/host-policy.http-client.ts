import { AddressGuard, type ResolveHost } from './address-guard.rules';
import { decodeBody, cancelQuietly, readBodyCapped } from './body-reader.util';
import { type Clock, raceAbort, sleep, systemClock } from './clock.util';
import { HostGate, type HostGateLimits } from './host-gate.scheduler';
import type { HostStats, HttpClient } from './http-client.model';
import {
  HostRefusedError,
  HttpClientError,
  HttpStatusError,
  InvalidUrlError,
  MalformedResponseError,
  NetworkError,
  RequestAbortedError,
  RequestTimeoutError,
  RobotsBlockedError,
  TooManyRedirectsError,
} from './http.errors';
import { isPathAllowed, parseRobotsTxt, type RobotsTxt } from './robots.rules';
import { createPinnedFetch } from './pinned-fetch.transport';
import { backoffDelayMs, parseRetryAfterMs } from './retry.rules';

export interface HostPolicyOptions {
  /** Sent as User-Agent on every request. */
  userAgent?: string;
  /** Product token looked up in robots.txt groups before falling back to `*`. */
  robotsUserAgentToken?: string;
  /** Minimum time between request starts to one host (default 2000). */
  minSpacingMs?: number;
  /** Requests in flight per host at once (default 1). */
  maxInFlightPerHost?: number;
  /** Stricter or looser limits for named hosts, keyed by `hostname:port` or bare `hostname`. */
  perHost?: Record<string, Partial<HostGateLimits>>;
  /** Per attempt, from the start of the request to the last body byte (default 20 s). */
  requestTimeoutMs?: number;
  /** Decoded body size cap of pages and text (detail pages, posting checks, robots.txt; default 1,000,000 bytes). */
  maxResponseBytes?: number;
  /**
   * api_response_max_bytes: the cap of a JSON API response (getJson; default 16 MiB). A board API
   * answers its whole board in one document (Ashby's ramp is 1.8 MB), which the page cap would
   * refuse; the body is still streamed and never buffered past this cap.
   */
  maxApiResponseBytes?: number;
  /** Attempts per request, first one included, for 429/5xx/network failures (default 4). */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** Host cooldown after a 429/503 without a usable Retry-After (default 60 s). */
  defaultCooldownMs?: number;
  /** Upper bound for any Retry-After the client honours (default 10 min). */
  maxCooldownMs?: number;
  respectRobots?: boolean;
  /** How long a fetched robots.txt (or a 4xx "allow all") is trusted (default 24 h, RFC 9309 §2.4). */
  robotsTtlMs?: number;
  /** How long an unreachable robots.txt (5xx, network) blocks the host before a refetch (default 2 min). */
  robotsUnreachableTtlMs?: number;
  /** A host idle this long (nothing queued or in flight, no cooldown) has its gate forgotten (default 10 min). */
  hostIdleEvictMs?: number;
  /** robots.txt verdicts kept at most; beyond it the oldest are dropped and simply fetched again (default 1000). */
  maxRobotsEntries?: number;
  maxRedirects?: number;
  clock?: Clock;
  /** Jitter source in [0, 1). */
  random?: () => number;
  /**
   * allowed_private_hosts: hosts (names or IP literals) the crawler may reach although they are or
   * resolve to private, loopback, link-local or metadata addresses; every other such URL is refused
   * with HostRefusedError (default: none).
   */
  allowedPrivateHosts?: readonly string[];
  /** The address guard's resolver (tests; default dns.lookup). */
  resolve?: ResolveHost;
  /**
   * The transport. The default one connects only to addresses the guard admitted; a replacement
   * (a test's script) is still asked for nothing the guard refused, but its own connections are its business.
   */
  fetch?: typeof fetch;
}

type ResolvedOptions = Required<Omit<HostPolicyOptions, 'perHost' | 'allowedPrivateHosts' | 'resolve' | 'fetch'>> & {
  perHost: Record<string, Partial<HostGateLimits>>;
  fetch: typeof fetch;
};

const DEFAULTS: Omit<ResolvedOptions, 'fetch'> = {
  userAgent: 'jobctrl/0.1 (self-hosted job search; respects robots.txt)',
  robotsUserAgentToken: 'jobctrl',
  minSpacingMs: 2000,
  maxInFlightPerHost: 1,
  perHost: {},
  requestTimeoutMs: 20_000,
  maxResponseBytes: 1_000_000,
  maxApiResponseBytes: 16 * 1024 * 1024,
  maxAttempts: 4,
  backoffBaseMs: 500,
  backoffMaxMs: 30_000,
  defaultCooldownMs: 60_000,
  maxCooldownMs: 10 * 60_000,
  respectRobots: true,
  robotsTtlMs: 24 * 60 * 60_000,
  robotsUnreachableTtlMs: 2 * 60_000,
  hostIdleEvictMs: 10 * 60_000,
  maxRobotsEntries: 1000,
  maxRedirects: 5,
  clock: systemClock,
  random: Math.random,
};

type RobotsState = { kind: 'rules'; robots: RobotsTxt } | { kind: 'allow-all' } | { kind: 'unreachable' };

interface PendingRobots {
  promise: Promise<RobotsState>;
  controller: AbortController;
  waiters: number;
}

type AttemptOutcome =
  | { kind: 'response'; status: number; body: Uint8Array; contentType: string | null; retryAfterMs?: number }
  | { kind: 'redirect'; status: number; location: URL };

/** Why `beforeRequest` is being asked: the exchange's first request, a retry of it, or a redirect hop. */
export type ExchangeRequestKind = 'first' | 'retry' | 'redirect';

export interface ExchangeOptions {
  /** The Accept header. */
  accept: string;
  signal?: AbortSignal;
  /** Redirects followed before TooManyRedirectsError (default: the client's `maxRedirects`). */
  maxRedirects?: number;
  /** Per response body cap, at most the client's own (a caller may only make it stricter). */
  maxResponseBytes?: number;
  /** Per attempt, at most the client's own `requestTimeoutMs`. */
  timeoutMs?: number;
  /**
   * Called before every network request the exchange makes (not robots.txt, which is shared by
   * every caller of the origin and cached); throwing refuses the request and ends the exchange with
   * that error. It runs before the host's gate is waited for, so a refused request holds no slot.
   */
  beforeRequest?: (url: string, request: { kind: ExchangeRequestKind }) => void | Promise<void>;
  /** Hears of each body chunk kept, as it is read (for a byte budget spanning several exchanges). */
  onBytes?: (bytes: number) => void;
  /**
   * A retry that would have to wait longer than this (its backoff, Retry-After or the host's
   * cooldown) is not made: the status is returned at once. The cooldown itself stays in force for
   * every caller; only this caller stops waiting for it (default: no limit, like `get`).
   */
  maxRetryWaitMs?: number;
}

/** A redirect the exchange followed: the URL that answered 3xx and its status. */
export interface ExchangeHop {
  url: string;
  status: number;
}

export interface ExchangeResult {
  /** The URL asked for. */
  url: string;
  /** The URL that answered last. */
  finalUrl: string;
  /** The final status: 2xx, 4xx, 5xx (after the retries) and a 3xx without a Location alike. */
  status: number;
  hops: ExchangeHop[];
  contentType: string | null;
  /** Decoded with the declared charset. */
  body: string;
  /** Body bytes of the final response (before decoding). */
  bytes: number;
}

/** A host slot held for a request someone else performs (a browser resource). */
export interface HostReservation {
  /**
   * Gives the slot back once the request finished or failed; a 429/503 `status` starts the host's
   * cooldown exactly as one answered to the client would. Calling it twice is harmless.
   */
  release(outcome?: { status?: number; retryAfter?: string | null }): void;
}

interface FollowSettings {
  accept: string;
  signal?: AbortSignal;
  maxRedirects: number;
  maxResponseBytes: number;
  timeoutMs: number;
  beforeRequest?: ExchangeOptions['beforeRequest'];
  onBytes?: (bytes: number) => void;
  maxRetryWaitMs: number;
  /** `get` throws HttpStatusError on a non-2xx final answer; `exchange` returns it with its body. */
  statuses: 'throw' | 'return';
}

interface FollowResult {
  finalUrl: string;
  status: number;
  hops: ExchangeHop[];
  contentType: string | null;
  body: Uint8Array;
}

/**
 * The shared host policy: every source adapter and enrichment fetch goes through one instance per
 * worker so that politeness holds across them — spacing and an in-flight cap per host, 429/503
 * cooldowns that hold back every caller of that host, bounded retries, robots.txt, a timeout and a
 * size cap. Every wait listens to the caller's signal, because a cancelled activity must not leave
 * requests queued that would start later on its behalf.
 */
export class HostPolicyHttpClient implements HttpClient {
  private readonly options: ResolvedOptions;
  private readonly gates = new Map<string, HostGate>();
  private readonly robotsCache = new Map<string, { state: RobotsState; expiresAt: number }>();
  private readonly robotsPending = new Map<string, PendingRobots>();
  private lastSweepAt = Number.NEGATIVE_INFINITY;
  /** The address rule every request and redirect hop passes (also for reserveHost's browser requests). */
  readonly guard: AddressGuard;

  constructor(options: HostPolicyOptions = {}) {
    const { allowedPrivateHosts, resolve, ...rest } = options;
    const defined = Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined));
    this.guard = new AddressGuard({ allowedPrivateHosts, resolve });
    this.options = { ...DEFAULTS, fetch: createPinnedFetch(this.guard), ...defined } as ResolvedOptions;
    validateOptions(this.options);
  }

  async getJson<T = unknown>(url: string, opts?: { signal?: AbortSignal }): Promise<T> {
    const result = await this.get(url, 'application/json', opts?.signal, this.options.maxApiResponseBytes);
    // RFC 8259: JSON exchanged between systems is UTF-8 whatever the header claims.
    const text = decodeBody(result.body, null);
    try {
      return JSON.parse(text) as T;
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      throw new MalformedResponseError(result.url, `body is not valid JSON (${detail})`, { cause: err });
    }
  }

  async getText(url: string, opts?: { signal?: AbortSignal }): Promise<string> {
    const result = await this.get(url, 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.8', opts?.signal);
    return decodeBody(result.body, result.contentType);
  }

  /**
   * One GET with its redirects followed, answered as data: a 4xx/5xx final status is returned with
   * its body instead of thrown (a posting check needs the 404 and the captcha page as evidence).
   * Everything else is `get`'s policy: each hop and retry passes its own host's robots.txt and gate,
   * 429/503 cool the host down and are retried a bounded number of times (one that persists comes
   * back as that status), and robots, redirect-limit, size and timeout failures still throw.
   */
  async exchange(url: string, opts: ExchangeOptions): Promise<ExchangeResult> {
    const result = await this.follow(url, {
      accept: opts.accept,
      signal: opts.signal,
      maxRedirects: opts.maxRedirects ?? this.options.maxRedirects,
      maxResponseBytes: Math.min(opts.maxResponseBytes ?? Number.POSITIVE_INFINITY, this.options.maxResponseBytes),
      timeoutMs: Math.min(opts.timeoutMs ?? Number.POSITIVE_INFINITY, this.options.requestTimeoutMs),
      beforeRequest: opts.beforeRequest,
      onBytes: opts.onBytes,
      maxRetryWaitMs: opts.maxRetryWaitMs ?? Number.POSITIVE_INFINITY,
      statuses: 'return',
    });
    return {
      url,
      finalUrl: result.finalUrl,
      status: result.status,
      hops: result.hops,
      contentType: result.contentType,
      body: decodeBody(result.body, result.contentType),
      bytes: result.body.byteLength,
    };
  }

  /**
   * Holds a start slot of `url`'s host for a request another component performs (a browser page's
   * resource): it waits for the host's spacing, in-flight limit and cooldown exactly like a request
   * of this client, so a browser cannot reach a host more often than the shared policy allows.
   * `robots: true` checks robots.txt first (for a document; sub-resources of an admitted page are
   * not crawled URLs and are not checked).
   */
  async reserveHost(rawUrl: string, opts: { signal?: AbortSignal; robots?: boolean } = {}): Promise<HostReservation> {
    const url = parseHttpUrl(rawUrl);
    await this.refuseForbiddenAddress(url);
    if (opts.robots) await this.checkRobots(url, opts.signal);
    const gate = this.gateFor(url);
    const release = await gate.acquire(url.href, opts.signal);
    return {
      release: (outcome) => {
        if (outcome?.status !== undefined) this.coolDownOn(gate, outcome.status, outcome.retryAfter ?? null);
        release();
      },
    };
  }

  stats(): Record<string, HostStats> {
    const now = this.options.clock.now();
    const out: Record<string, HostStats> = {};
    for (const [host, gate] of this.gates) {
      out[host] = {
        requests: gate.requests,
        robotsFetches: gate.robotsFetches,
        inFlight: gate.inFlight,
        peakInFlight: gate.peakInFlight,
        queued: gate.queued,
        cooldownUntil: gate.cooldownUntil > now ? gate.cooldownUntil : null,
      };
    }
    return out;
  }

  private async get(rawUrl: string, accept: string, signal?: AbortSignal, maxResponseBytes = this.options.maxResponseBytes): Promise<{ body: Uint8Array; contentType: string | null; url: string }> {
    const result = await this.follow(rawUrl, {
      accept,
      signal,
      maxRedirects: this.options.maxRedirects,
      maxResponseBytes,
      timeoutMs: this.options.requestTimeoutMs,
      maxRetryWaitMs: Number.POSITIVE_INFINITY,
      statuses: 'throw',
    });
    return { body: result.body, contentType: result.contentType, url: result.finalUrl };
  }

  /** The request loop `get` and `exchange` share: robots, redirects hop by hop, bounded retries. */
  private async follow(rawUrl: string, settings: FollowSettings): Promise<FollowResult> {
    const { signal } = settings;
    let url = parseHttpUrl(rawUrl);
    const hops: ExchangeHop[] = [];
    let failures = 0;
    let kind: ExchangeRequestKind = 'first';
    for (;;) {
      if (signal?.aborted) throw new RequestAbortedError(url.href, signal.reason);
      // Before robots.txt and the gate: a refused host is asked for nothing, not even robots.txt.
      await this.refuseForbiddenAddress(url);
      await this.checkRobots(url, signal);
      await settings.beforeRequest?.(url.href, { kind });

      let outcome: AttemptOutcome;
      try {
        outcome = await this.attempt(url, settings);
      } catch (err) {
        // Connection-level failures are as transient as a 5xx; timeouts are not retried here
        // because each one already spent a full timeout of the activity's budget.
        if (!(err instanceof NetworkError)) throw err;
        failures += 1;
        if (failures >= this.options.maxAttempts) throw err;
        await sleep(this.options.clock, this.backoff(failures), url.href, signal);
        kind = 'retry';
        continue;
      }

      if (outcome.kind === 'redirect') {
        // Each hop is its own request: it passes the target host's robots.txt and gate, so a
        // redirect cannot smuggle a request past another host's policy.
        hops.push({ url: url.href, status: outcome.status });
        if (hops.length > settings.maxRedirects) throw new TooManyRedirectsError(rawUrl, settings.maxRedirects, hops);
        url = outcome.location;
        kind = 'redirect';
        continue;
      }

      const final: FollowResult = { finalUrl: url.href, status: outcome.status, hops, contentType: outcome.contentType, body: outcome.body };
      if (outcome.status >= 200 && outcome.status < 300) return final;
      const error = new HttpStatusError(url.href, outcome.status, outcome.retryAfterMs);
      failures += 1;
      let delay: number | undefined;
      if (error.retryable && failures < this.options.maxAttempts) {
        // For 429/503 the gate already holds the host until the cooldown ends; the backoff runs
        // concurrently with it, so the retry waits for whichever is longer.
        const hinted = isCooldownStatus(outcome.status) ? 0 : (outcome.retryAfterMs ?? 0);
        delay = Math.max(this.backoff(failures), hinted);
        const cooldownLeft = this.gateFor(url).cooldownUntil - this.options.clock.now();
        if (Math.max(delay, cooldownLeft) > settings.maxRetryWaitMs) delay = undefined;
      }
      if (delay === undefined) {
        if (settings.statuses === 'return') return final;
        throw error;
      }
      await sleep(this.options.clock, delay, url.href, signal);
      kind = 'retry';
    }
  }

  private async attempt(url: URL, settings: FollowSettings): Promise<AttemptOutcome> {
    const { signal } = settings;
    const gate = this.gateFor(url);
    const release = await gate.acquire(url.href, signal);
    const deadline = this.startDeadline(signal, settings.timeoutMs);
    try {
      if (signal?.aborted) throw new RequestAbortedError(url.href, signal.reason);
      const response = await this.options.fetch(url.href, {
        headers: { 'user-agent': this.options.userAgent, accept: settings.accept },
        redirect: 'manual',
        signal: deadline.signal,
      });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        void cancelQuietly(response);
        return { kind: 'redirect', status: response.status, location: parseHttpUrl(location, url) };
      }
      const contentType = response.headers.get('content-type');
      if (response.ok || settings.statuses === 'return') {
        const body = await readBodyCapped(response, url.href, settings.maxResponseBytes, 'error', settings.onBytes);
        if (response.ok) return { kind: 'response', status: response.status, body, contentType };
        const retryAfterMs = this.coolDownOn(gate, response.status, response.headers.get('retry-after'));
        return { kind: 'response', status: response.status, body, contentType, retryAfterMs };
      }
      void cancelQuietly(response);
      const retryAfterMs = this.coolDownOn(gate, response.status, response.headers.get('retry-after'));
      return { kind: 'response', status: response.status, body: new Uint8Array(0), contentType, retryAfterMs };
    } catch (err) {
      throw this.classify(err, url.href, signal, deadline.timedOut(), settings.timeoutMs);
    } finally {
      deadline.dispose();
      release();
    }
  }

  /**
   * The address rule, checked up front so a refusal is its own clear error rather than an
   * "unreachable robots.txt". Only a refusal is thrown here: a resolver failure is left to the
   * request itself, which reports it as the (retried) network error it is. The default transport
   * checks again when it connects, to the addresses it then pins.
   */
  private async refuseForbiddenAddress(url: URL): Promise<void> {
    try {
      await this.guard.check(url);
    } catch (err) {
      if (err instanceof HostRefusedError) throw err;
    }
  }

  /** A 429/503 holds back every caller of the host; returns the (capped) Retry-After it carried. */
  private coolDownOn(gate: HostGate, status: number, retryAfter: string | null): number | undefined {
    const retryAfterMs = this.cappedRetryAfter(retryAfter);
    if (isCooldownStatus(status)) gate.coolDownUntil(this.options.clock.now() + (retryAfterMs ?? this.options.defaultCooldownMs));
    return retryAfterMs;
  }

  private async checkRobots(url: URL, signal?: AbortSignal): Promise<void> {
    if (!this.options.respectRobots || url.pathname === '/robots.txt') return;
    const state = await this.robotsFor(url, signal);
    if (state.kind === 'unreachable') throw new RobotsBlockedError(url.href, 'unreachable');
    if (state.kind === 'rules' && !isPathAllowed(state.robots, url.pathname + url.search, this.options.robotsUserAgentToken)) {
      throw new RobotsBlockedError(url.href, 'disallowed');
    }
  }

  /**
   * One robots.txt fetch per origin, shared by every caller that needs it meanwhile. The fetch
   * has its own signal, aborted only when the last interested caller gives up, so one caller's
   * cancellation does not fail the others and nobody's abort leaves an orphan fetch queued.
   */
  private async robotsFor(url: URL, signal?: AbortSignal): Promise<RobotsState> {
    const origin = url.origin;
    this.sweep();
    const cached = this.robotsCache.get(origin);
    if (cached && cached.expiresAt > this.options.clock.now()) return cached.state;

    let pending = this.robotsPending.get(origin);
    if (!pending) {
      const controller = new AbortController();
      const entry: PendingRobots = { controller, waiters: 0, promise: Promise.resolve({ kind: 'allow-all' }) };
      entry.promise = this.fetchRobots(url, controller.signal)
        .then(({ state, ttlMs }) => {
          // Re-inserted so the Map's order is freshness order: the size bound drops the oldest first.
          this.robotsCache.delete(origin);
          this.robotsCache.set(origin, { state, expiresAt: this.options.clock.now() + ttlMs });
          while (this.robotsCache.size > this.options.maxRobotsEntries) this.robotsCache.delete(this.robotsCache.keys().next().value as string);
          return state;
        })
        .finally(() => {
          if (this.robotsPending.get(origin) === entry) this.robotsPending.delete(origin);
        });
      entry.promise.catch(() => undefined);
      this.robotsPending.set(origin, entry);
      pending = entry;
    }

    pending.waiters += 1;
    try {
      return await raceAbort(pending.promise, url.href, signal);
    } finally {
      pending.waiters -= 1;
      if (pending.waiters === 0 && this.robotsPending.get(origin) === pending) {
        this.robotsPending.delete(origin);
        pending.controller.abort();
      }
    }
  }

  private async fetchRobots(url: URL, signal: AbortSignal): Promise<{ state: RobotsState; ttlMs: number }> {
    const robotsUrl = new URL('/robots.txt', url.origin).href;
    const unreachable = { state: { kind: 'unreachable' } as const, ttlMs: this.options.robotsUnreachableTtlMs };
    const gate = this.gateFor(url);
    const release = await gate.acquire(robotsUrl, signal);
    gate.robotsFetches += 1;
    const deadline = this.startDeadline(signal);
    try {
      const response = await this.options.fetch(robotsUrl, {
        headers: { 'user-agent': this.options.userAgent, accept: 'text/plain,*/*;q=0.5' },
        // RFC 9309 §2.3.1.2: follow redirects for robots.txt itself.
        redirect: 'follow',
        signal: deadline.signal,
      });
      if (response.ok) {
        const body = await readBodyCapped(response, robotsUrl, this.options.maxResponseBytes, 'truncate');
        return { state: { kind: 'rules', robots: parseRobotsTxt(decodeBody(body, response.headers.get('content-type'))) }, ttlMs: this.options.robotsTtlMs };
      }
      void cancelQuietly(response);
      this.coolDownOn(gate, response.status, response.headers.get('retry-after'));
      // §2.3.1.3: 4xx means "unavailable", so everything is allowed. 429 is a rate limit, not an
      // absent file, so it joins the 5xx "unreachable" case of §2.3.1.4.
      if (response.status >= 400 && response.status < 500 && response.status !== 429) {
        return { state: { kind: 'allow-all' }, ttlMs: this.options.robotsTtlMs };
      }
      return unreachable;
    } catch (err) {
      // robots.txt redirected to (or the host now resolves to) a refused address: that is the answer.
      if (err instanceof HostRefusedError) throw err;
      if (signal.aborted && !deadline.timedOut()) throw new RequestAbortedError(robotsUrl, signal.reason);
      // Timeout, refused connection, reset: all "unreachable" in RFC 9309's terms.
      return unreachable;
    } finally {
      deadline.dispose();
      release();
    }
  }

  /**
   * A long-lived worker meets hosts once (a posting's own careers site) and never again: without
   * eviction both maps grow for the process's lifetime. At most once a minute, gates that can be
   * forgotten without loosening spacing or cooldowns (see HostGate.isForgettable) and expired robots
   * verdicts are dropped. Active hosts keep their gates, so their guarantees are untouched.
   */
  private sweep(): void {
    const now = this.options.clock.now();
    if (now - this.lastSweepAt < Math.min(60_000, this.options.hostIdleEvictMs)) return;
    this.lastSweepAt = now;
    for (const [key, gate] of this.gates) if (gate.isForgettable(now, this.options.hostIdleEvictMs)) this.gates.delete(key);
    for (const [origin, entry] of this.robotsCache) if (entry.expiresAt <= now) this.robotsCache.delete(origin);
  }

  private gateFor(url: URL): HostGate {
    this.sweep();
    const key = hostKey(url);
    let gate = this.gates.get(key);
    if (!gate) {
      const override = this.options.perHost[key] ?? this.options.perHost[url.hostname] ?? {};
      gate = new HostGate(this.options.clock, {
        minSpacingMs: override.minSpacingMs ?? this.options.minSpacingMs,
        maxInFlight: override.maxInFlight ?? this.options.maxInFlightPerHost,
      });
      this.gates.set(key, gate);
    }
    return gate;
  }

  /** A signal that fires on the caller's abort or after the per-request timeout, whichever first. */
  private startDeadline(signal?: AbortSignal, timeoutMs = this.options.requestTimeoutMs): { signal: AbortSignal; timedOut: () => boolean; dispose: () => void } {
    const controller = new AbortController();
    let timedOut = false;
    const cancelTimer = this.options.clock.setTimer(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) controller.abort(signal.reason);
    return {
      signal: controller.signal,
      timedOut: () => timedOut,
      dispose: () => {
        cancelTimer();
        signal?.removeEventListener('abort', onAbort);
        // Tears down a body nobody will read (non-2xx, redirect, size cap) instead of leaving it open.
        controller.abort();
      },
    };
  }

  private classify(err: unknown, url: string, signal: AbortSignal | undefined, timedOut: boolean, timeoutMs: number): Error {
    if (err instanceof HttpClientError) return err;
    if (signal?.aborted) return new RequestAbortedError(url, signal.reason);
    if (timedOut) return new RequestTimeoutError(url, timeoutMs);
    return new NetworkError(url, err);
  }

  private cappedRetryAfter(header: string | null): number | undefined {
    const ms = parseRetryAfterMs(header, this.options.clock.now());
    return ms === undefined ? undefined : Math.min(ms, this.options.maxCooldownMs);
  }

  private backoff(failures: number): number {
    return backoffDelayMs(failures, { baseMs: this.options.backoffBaseMs, maxMs: this.options.backoffMaxMs }, this.options.random);
  }
}

/** `hostname:port` with the scheme's default port filled in: the unit every limit applies to. */
export function hostKey(url: URL): string {
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return `${url.hostname}:${port}`;
}

function isCooldownStatus(status: number): boolean {
  return status === 429 || status === 503;
}

function parseHttpUrl(raw: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(raw, base);
  } catch {
    throw new InvalidUrlError(raw, 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidUrlError(url.href, 'only http and https URLs are fetched');
  return url;
}

function validateOptions(options: ResolvedOptions): void {
  const nonNegative: (keyof ResolvedOptions)[] = [
    'minSpacingMs', 'backoffBaseMs', 'backoffMaxMs', 'defaultCooldownMs', 'maxCooldownMs', 'robotsTtlMs',
    'robotsUnreachableTtlMs', 'maxRedirects', 'hostIdleEvictMs',
  ];
  const positive: (keyof ResolvedOptions)[] = ['maxInFlightPerHost', 'requestTimeoutMs', 'maxResponseBytes', 'maxApiResponseBytes', 'maxAttempts', 'maxRobotsEntries'];
  for (const key of nonNegative) {
    const value = options[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new RangeError(`${key} must be a finite number >= 0, got ${String(value)}`);
  }
  for (const key of positive) {
    const value = options[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 1) throw new RangeError(`${key} must be a finite number >= 1, got ${String(value)}`);
  }
  for (const [host, limits] of Object.entries(options.perHost)) {
    if (limits.maxInFlight !== undefined && !(limits.maxInFlight >= 1)) throw new RangeError(`perHost.${host}.maxInFlight must be >= 1`);
    if (limits.minSpacingMs !== undefined && !(limits.minSpacingMs >= 0)) throw new RangeError(`perHost.${host}.minSpacingMs must be >= 0`);
  }
}
