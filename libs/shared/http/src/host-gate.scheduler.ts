import type { Clock } from './clock.util';
import { RequestAbortedError } from './http.errors';

/** Gives the slot back; calling it twice is harmless. */
export type ReleaseSlot = () => void;

interface Waiter {
  url: string;
  signal?: AbortSignal;
  grant: (release: ReleaseSlot) => void;
  onAbort?: () => void;
}

export interface HostGateLimits {
  /** Minimum time between two request starts on this host. */
  minSpacingMs: number;
  maxInFlight: number;
}

/**
 * The politeness gate of one host: FIFO admission under three limits at once — spacing between
 * starts, an in-flight cap, and a cooldown set by 429/503 answers. A waiter that aborts leaves the
 * queue at once, so an abandoned caller never holds up (or later consumes) a start on the host.
 */
export class HostGate {
  requests = 0;
  robotsFetches = 0;
  inFlight = 0;
  peakInFlight = 0;
  cooldownUntil = 0;
  private lastStartAt = Number.NEGATIVE_INFINITY;
  private readonly queue: Waiter[] = [];
  private cancelTimer?: () => void;

  constructor(
    private readonly clock: Clock,
    private readonly limits: HostGateLimits,
  ) {}

  get queued(): number {
    return this.queue.length;
  }

  acquire(url: string, signal?: AbortSignal): Promise<ReleaseSlot> {
    if (signal?.aborted) return Promise.reject(new RequestAbortedError(url, signal.reason));
    return new Promise<ReleaseSlot>((resolve, reject) => {
      const waiter: Waiter = { url, signal, grant: resolve };
      if (signal) {
        waiter.onAbort = () => {
          const index = this.queue.indexOf(waiter);
          if (index >= 0) this.queue.splice(index, 1);
          reject(new RequestAbortedError(url, signal.reason));
          // The aborted waiter may have been the head the timer was armed for.
          this.pump();
        };
        signal.addEventListener('abort', waiter.onAbort, { once: true });
      }
      this.queue.push(waiter);
      this.pump();
    });
  }

  /**
   * Whether this gate can be dropped and later replaced by a fresh one without changing any outcome:
   * nothing in flight or queued, the cooldown over, and the last start at least the spacing (and
   * `idleMs`) ago — a fresh gate, whose first start is immediate, admits exactly what this one would.
   */
  isForgettable(now: number, idleMs: number): boolean {
    return this.inFlight === 0 && this.queue.length === 0 && this.cooldownUntil <= now && now >= this.lastStartAt + Math.max(this.limits.minSpacingMs, idleMs);
  }

  /** Extends (never shortens) the host's cooldown; waiters already queued respect it too. */
  coolDownUntil(until: number): void {
    if (until <= this.cooldownUntil) return;
    this.cooldownUntil = until;
    this.pump();
  }

  private pump(): void {
    this.cancelTimer?.();
    this.cancelTimer = undefined;
    while (this.queue.length > 0 && this.inFlight < this.limits.maxInFlight) {
      const now = this.clock.now();
      const readyAt = Math.max(this.lastStartAt + this.limits.minSpacingMs, this.cooldownUntil);
      if (now < readyAt) {
        this.cancelTimer = this.clock.setTimer(() => {
          this.cancelTimer = undefined;
          this.pump();
        }, readyAt - now);
        return;
      }
      const waiter = this.queue.shift() as Waiter;
      if (waiter.onAbort) waiter.signal?.removeEventListener('abort', waiter.onAbort);
      this.inFlight += 1;
      this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
      this.requests += 1;
      this.lastStartAt = now;
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.inFlight -= 1;
        this.pump();
      });
    }
  }
}
