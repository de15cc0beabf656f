import { CancelledFailure } from '@temporalio/common';

/**
 * This process's running remote activities by workflow id, each with a stop of its own (spec: "model-
 * attempt cancellation uses a thread-safe stop signal"). A cancel of a workflow reaches its activities
 * on their next heartbeat (up to the worker's heartbeat throttle later, 2 s here), and in that window an
 * activity between two model calls could still start one. A control in this process that cancels the
 * workflow (owner-scoped preparation cancellation) also stops them here at once. The activity
 * interceptor folds the stop into `Context.cancellationSignal`, so every wait and every model call of
 * the activity, which already honours that signal, honours this one too. Activities of the workflow
 * on other worker processes learn of it through the heartbeat as before.
 */
export class ActivityStops {
  private readonly running = new Map<string, Set<AbortController>>();

  /** An attempt of `workflowId`'s activity starts: its stop, and the exit to call when it ends. */
  enter(workflowId: string): { signal: AbortSignal; exit: () => void } {
    const stop = new AbortController();
    let attempts = this.running.get(workflowId);
    if (!attempts) this.running.set(workflowId, (attempts = new Set()));
    attempts.add(stop);
    return {
      signal: stop.signal,
      exit: () => {
        attempts.delete(stop);
        if (attempts.size === 0 && this.running.get(workflowId) === attempts) this.running.delete(workflowId);
      },
    };
  }

  /** Stops every running activity of these workflows in this process; returns how many. */
  stop(workflowIds: Iterable<string>, reason: string): number {
    let stopped = 0;
    for (const id of workflowIds) {
      for (const stop of this.running.get(id) ?? []) {
        if (stop.signal.aborted) continue;
        stop.abort(new CancelledFailure(reason));
        stopped += 1;
      }
    }
    return stopped;
  }

  /**
   * Resolves once no attempt of these workflows runs in this process any more (or after `timeoutMs`):
   * a stopped attempt may still finish a write it had begun, and a caller that records the outcome
   * after it must not be overwritten by it. Resolves whether each one ended or the time ran out.
   */
  async settled(workflowIds: readonly string[], timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (workflowIds.some((id) => this.running.has(id))) {
      if (Date.now() >= deadline) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
    return true;
  }

  /** Running attempts, for tests and telemetry. */
  size(): number {
    let n = 0;
    for (const attempts of this.running.values()) n += attempts.size;
    return n;
  }
}
