import { createHmac, randomBytes } from 'node:crypto';

/**
 * Exact counts of the activities running on this worker, remote and local control separately, plus
 * an oldest-first detail list (spec: "What The Operations Snapshot Can Prove").
 *
 * - Every active slot is counted, whether or not it gets a detail item.
 * - Only allowlisted activity types get a detail item; the list is capped (20), while `detailTotal`
 *   stays exact, so `remoteActive + localActive` may legitimately exceed the rendered items.
 * - Activity arguments are never seen (the interceptor passes only SDK info). Identifiers that do not
 *   match a known grammar are replaced with a local opaque hash (keyed per process, so it cannot be
 *   reversed or correlated across processes by a dictionary of guesses).
 */
export const ACTIVITY_DETAIL_CAP = 20;

/** Observed throughput is measured over the last ten minutes of completions (or the uptime, if shorter). */
export const THROUGHPUT_WINDOW_MS = 10 * 60_000;

export interface ActivityMeta {
  isLocal: boolean;
  activityType: string;
  workflowId?: string;
  runId?: string;
  workflowType?: string;
  attempt: number;
}

export interface ActiveActivityItem {
  activityType: string;
  isLocal: boolean;
  workflowType: string;
  workflowId: string;
  runId: string;
  attempt: number;
  startedAt: string;
}

export interface ActivityGaugeSnapshot {
  remoteActive: number;
  localActive: number;
  peakRemoteActive: number;
  peakLocalActive: number;
  remoteStarted: number;
  localStarted: number;
  remoteCompleted: number;
  localCompleted: number;
  /** Exact number of active allowlisted activities (detail may be capped below it). */
  detailTotal: number;
  /** Oldest first, at most ACTIVITY_DETAIL_CAP items. */
  detail: ActiveActivityItem[];
  /** Remote activities completed within the trailing window (the ETA's observed throughput). */
  throughput: { windowSeconds: number; remoteCompleted: number };
}

export interface ActivityDetailPolicy {
  /** Activity types that may appear in the detail list. */
  allowlist: readonly string[];
  /** Workflow ids that may stay readable (grammar-validated); others are hashed. */
  readableWorkflowId: RegExp;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CODE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,63}$/;

interface Entry {
  seq: number;
  item: ActiveActivityItem | null;
  isLocal: boolean;
}

export class ActivityGauge {
  private remote = 0;
  private local = 0;
  private peakRemote = 0;
  private peakLocal = 0;
  private remoteStarted = 0;
  private localStarted = 0;
  private remoteCompleted = 0;
  private localCompleted = 0;
  private seq = 0;
  private readonly active = new Map<number, Entry>();
  private readonly watchers = new Set<(active: number) => void>();
  private readonly hashKey = randomBytes(32);
  private readonly completions: number[] = [];
  private readonly createdAt: number;

  constructor(
    private readonly policy: ActivityDetailPolicy = { allowlist: [], readableWorkflowId: /^$/ },
    private readonly clock: () => number = Date.now,
  ) {
    this.createdAt = clock();
  }

  /** Records an activity start; call the returned function exactly once when it ends. */
  enter(meta: ActivityMeta, now: number = this.clock()): () => void {
    const seq = ++this.seq;
    if (meta.isLocal) {
      this.local += 1;
      this.localStarted += 1;
      this.peakLocal = Math.max(this.peakLocal, this.local);
    } else {
      this.remote += 1;
      this.remoteStarted += 1;
      this.peakRemote = Math.max(this.peakRemote, this.remote);
      for (const w of this.watchers) w(this.remote);
    }
    this.active.set(seq, { seq, isLocal: meta.isLocal, item: this.policy.allowlist.includes(meta.activityType) ? this.detailOf(meta, now) : null });
    let exited = false;
    return () => {
      if (exited) return;
      exited = true;
      this.active.delete(seq);
      if (meta.isLocal) {
        this.local -= 1;
        this.localCompleted += 1;
      } else {
        this.remote -= 1;
        this.remoteCompleted += 1;
        this.completions.push(this.clock());
        this.prune();
      }
    };
  }

  get remoteActive(): number {
    return this.remote;
  }

  /** Calls `watcher` with the remote count each time a remote activity starts, until unsubscribed. */
  watchRemote(watcher: (active: number) => void): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  snapshot(): ActivityGaugeSnapshot {
    this.prune();
    // Map iteration order is insertion order = start order, so this is oldest first.
    const items: ActiveActivityItem[] = [];
    let detailTotal = 0;
    for (const entry of this.active.values()) {
      if (!entry.item) continue;
      detailTotal += 1;
      if (items.length < ACTIVITY_DETAIL_CAP) items.push(entry.item);
    }
    return {
      remoteActive: this.remote,
      localActive: this.local,
      peakRemoteActive: this.peakRemote,
      peakLocalActive: this.peakLocal,
      remoteStarted: this.remoteStarted,
      localStarted: this.localStarted,
      remoteCompleted: this.remoteCompleted,
      localCompleted: this.localCompleted,
      detailTotal,
      detail: items,
      throughput: {
        windowSeconds: Math.round(Math.min(THROUGHPUT_WINDOW_MS, this.clock() - this.createdAt) / 1000),
        remoteCompleted: this.completions.length,
      },
    };
  }

  private prune(): void {
    const cutoff = this.clock() - THROUGHPUT_WINDOW_MS;
    let drop = 0;
    while (drop < this.completions.length && this.completions[drop] < cutoff) drop += 1;
    if (drop > 0) this.completions.splice(0, drop);
  }

  private detailOf(meta: ActivityMeta, now: number): ActiveActivityItem {
    return {
      activityType: meta.activityType,
      isLocal: meta.isLocal,
      workflowType: meta.workflowType && CODE_NAME.test(meta.workflowType) ? meta.workflowType : this.opaque(meta.workflowType),
      workflowId: meta.workflowId && this.policy.readableWorkflowId.test(meta.workflowId) ? meta.workflowId : this.opaque(meta.workflowId),
      runId: meta.runId && UUID.test(meta.runId) ? meta.runId : this.opaque(meta.runId),
      attempt: meta.attempt,
      startedAt: new Date(now).toISOString(),
    };
  }

  private opaque(value: string | undefined): string {
    if (!value) return 'none';
    return `h_${createHmac('sha256', this.hashKey).update(value).digest('hex').slice(0, 16)}`;
  }
}
