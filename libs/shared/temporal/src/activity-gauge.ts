/**
 * Exact counts of the activities running on this worker, remote and local control separately.
 * Fed by the activity interceptor; read by the heartbeat and by the smoke activity. It never sees
 * activity arguments.
 */
export interface ActivityGaugeSnapshot {
  remoteActive: number;
  localActive: number;
  peakRemoteActive: number;
  peakLocalActive: number;
  remoteStarted: number;
  localStarted: number;
}

export class ActivityGauge {
  private remote = 0;
  private local = 0;
  private peakRemote = 0;
  private peakLocal = 0;
  private remoteStarted = 0;
  private localStarted = 0;
  private readonly watchers = new Set<(active: number) => void>();

  enter(isLocal: boolean): void {
    if (isLocal) {
      this.local += 1;
      this.localStarted += 1;
      this.peakLocal = Math.max(this.peakLocal, this.local);
    } else {
      this.remote += 1;
      this.remoteStarted += 1;
      this.peakRemote = Math.max(this.peakRemote, this.remote);
      for (const w of this.watchers) w(this.remote);
    }
  }

  exit(isLocal: boolean): void {
    if (isLocal) this.local -= 1;
    else this.remote -= 1;
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
    return {
      remoteActive: this.remote,
      localActive: this.local,
      peakRemoteActive: this.peakRemote,
      peakLocalActive: this.peakLocal,
      remoteStarted: this.remoteStarted,
      localStarted: this.localStarted,
    };
  }
}
