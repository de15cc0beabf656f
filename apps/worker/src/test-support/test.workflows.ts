// Workflows used only by the worker's integration tests, bundled together with the real ones.
import { ActivityFailure, ApplicationFailure, proxyActivities, proxyLocalActivities } from '@temporalio/workflow';

export * from '@jobctrl/pipeline/workflows';

export interface ProbeActivities {
  leaveTransactionOpen(marker: string): Promise<string>;
  commitRow(marker: string): Promise<string>;
  holdWithHeartbeats(ms: number): Promise<number>;
  /** Returns the attempt that finished. */
  waitWithoutProgress(ms: number): Promise<number>;
}

const remote = proxyActivities<ProbeActivities>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '2 seconds',
  retry: { maximumAttempts: 3, initialInterval: '100 ms' },
});

const local = proxyLocalActivities<ProbeActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 2, initialInterval: '100 ms' },
});

function failureOf(err: unknown): { type: string | null; nonRetryable: boolean | null; message: string } {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return { type: cause.type ?? null, nonRetryable: cause.nonRetryable ?? null, message: cause.message };
  return { type: null, nonRetryable: null, message: err instanceof Error ? err.message : String(err) };
}

export async function transactionProbeWorkflow(marker: string): Promise<{ committed: string; unfinished: ReturnType<typeof failureOf> | null }> {
  const committed = await remote.commitRow(`${marker}-committed`);
  try {
    await remote.leaveTransactionOpen(`${marker}-unfinished`);
    return { committed, unfinished: null };
  } catch (err) {
    return { committed, unfinished: failureOf(err) };
  }
}

export async function localMisuseWorkflow(): Promise<ReturnType<typeof failureOf> | null> {
  try {
    await local.commitRow('should-not-run-locally');
    return null;
  } catch (err) {
    return failureOf(err);
  }
}

export async function heartbeatProbeWorkflow(ms: number): Promise<number> {
  return remote.holdWithHeartbeats(ms);
}

export async function quietWaitProbeWorkflow(ms: number): Promise<number> {
  return remote.waitWithoutProgress(ms);
}
