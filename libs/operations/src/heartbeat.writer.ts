import type { BoundedExecutor } from '@jobctrl/shared/temporal';
import type { WorkerHeartbeat } from './worker-heartbeat.model';

export interface HeartbeatWriterDeps {
  /** Persists one heartbeat (its own SQLite connection per call). */
  persist: (hb: WorkerHeartbeat) => Promise<void>;
  /** Removes this worker's row on a clean stop, so health reads "missing" at once instead of going stale. */
  remove: (workerId: string) => Promise<void>;
  /** The worker's Temporal-sync executor: heartbeat persistence never runs unbounded. */
  executor: BoundedExecutor;
  /** Builds the current heartbeat; `writes` are this writer's own counters. */
  snapshot: (writes: HeartbeatWriteStats) => WorkerHeartbeat;
  intervalMs: number;
  log?: (message: string) => void;
}

export interface HeartbeatWriteStats {
  ok: number;
  failed: number;
  skipped: number;
  lastError: string | null;
  lastOkAt: number | null;
}

/**
 * Records the worker heartbeat every interval, off the Temporal critical path:
 * - nothing in activity code awaits it; the write is handed to the Temporal-sync executor and the
 *   sqlite3 driver does its busy waits on libuv's thread pool, never on the event loop;
 * - at most one write is in flight: a tick that finds the previous write still waiting (database busy)
 *   is skipped rather than queued, so a long busy wait cannot pile up writes;
 * - a failed write is counted and logged, never thrown: the status simply turns stale for readers.
 */
export class HeartbeatWriter {
  private timer: NodeJS.Timeout | null = null;
  private inFlight: Promise<void> | null = null;
  private readonly stats: HeartbeatWriteStats = { ok: 0, failed: 0, skipped: 0, lastError: null, lastOkAt: null };
  private workerId: string | null = null;

  constructor(private readonly deps: HeartbeatWriterDeps) {}

  start(): void {
    if (this.timer) return;
    this.tick();
    this.timer = setInterval(() => this.tick(), this.deps.intervalMs);
    // The worker's lifetime is owned by worker.run(), not by this timer.
    this.timer.unref();
  }

  status(): Readonly<HeartbeatWriteStats> {
    return { ...this.stats };
  }

  /** Writes one heartbeat now (unless one is in flight) and resolves when it settles. */
  tick(): Promise<void> {
    if (this.inFlight) {
      this.stats.skipped += 1;
      return this.inFlight;
    }
    const hb = this.deps.snapshot({ ...this.stats });
    this.workerId = hb.workerId;
    this.inFlight = this.deps.executor
      .run(() => this.deps.persist(hb))
      .then(
        () => {
          this.stats.ok += 1;
          this.stats.lastOkAt = Date.now();
          this.stats.lastError = null;
        },
        (err: unknown) => {
          this.stats.failed += 1;
          this.stats.lastError = err instanceof Error ? err.message : String(err);
          this.deps.log?.(`heartbeat write failed (status turns stale until a write succeeds): ${this.stats.lastError}`);
        },
      )
      .finally(() => {
        this.inFlight = null;
      });
    return this.inFlight;
  }

  async stop(opts: { removeRow?: boolean } = {}): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.inFlight;
    if (opts.removeRow !== false && this.workerId) {
      await this.deps.remove(this.workerId).catch((err: unknown) => {
        this.deps.log?.(`could not remove heartbeat row on stop: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
  }
}
