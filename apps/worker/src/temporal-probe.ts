import type { WorkerTemporalState } from '@jobctrl/operations';

export interface TemporalProbeOptions {
  /** One round trip to the server; rejects when it cannot be reached. */
  check: (deadlineMs: number) => Promise<unknown>;
  intervalMs: number;
  log?: (message: string) => void;
  now?: () => number;
}

/**
 * Whether this worker reaches Temporal, for its heartbeat. The SDK worker (1.24, checked against a
 * dev server killed for a minute) does not fail when the server goes away: its pollers retry without
 * end and resume once it is back. So nothing else in the process notices an outage, and the SQLite
 * heartbeat would go on saying ready; this probe is what makes health say `degraded` meanwhile.
 */
export class TemporalProbe {
  private current: WorkerTemporalState;
  private timer: NodeJS.Timeout | null = null;
  private inFlight = false;
  private readonly now: () => number;

  constructor(private readonly o: TemporalProbeOptions) {
    this.now = o.now ?? Date.now;
    // The worker reached it to get this far (NativeConnection.connect and Worker.create both call it).
    this.current = { status: 'reachable', since: this.now(), error: null };
  }

  state(): WorkerTemporalState {
    return { ...this.current };
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => void this.probe(), this.o.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** One probe (skipped while the previous one is still waiting); resolves with the state after it. */
  async probe(): Promise<WorkerTemporalState> {
    if (this.inFlight) return this.state();
    this.inFlight = true;
    // Short enough that an outage shows within a heartbeat or two, long enough for a loaded machine.
    const deadlineMs = Math.max(1_000, Math.min(this.o.intervalMs, 3_000));
    try {
      await this.o.check(deadlineMs);
      if (this.current.status !== 'reachable') {
        this.o.log?.(`Temporal reachable again after ${Math.round((this.now() - this.current.since) / 1000)} s`);
        this.current = { status: 'reachable', since: this.now(), error: null };
      }
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      if (this.current.status !== 'unreachable') {
        this.o.log?.(`Temporal unreachable (${error}); the worker keeps polling and resumes when it is back`);
        this.current = { status: 'unreachable', since: this.now(), error };
      } else {
        this.current = { ...this.current, error };
      }
    } finally {
      this.inFlight = false;
    }
    return this.state();
  }
}
