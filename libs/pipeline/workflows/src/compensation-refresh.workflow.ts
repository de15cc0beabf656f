import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities } from '@temporalio/workflow';
import { activityOptions, type CompensationActivities, type CompensationRefreshInput, type CompensationRefreshResult } from '@jobctrl/pipeline/contracts';

const { refreshCompensation } = proxyActivities<CompensationActivities>(activityOptions('refreshCompensation'));
const { endCompensationRefresh } = proxyActivities<CompensationActivities>(activityOptions('compensationControl'));

/**
 * One on-demand compensation refresh. The refresh row says how it ended: the activity records
 * `completed` (or `cancelled` when it stopped itself); when the activity failed for good, or the
 * workflow was cancelled, this records it, so GET /v1/compensation/refresh/:id never shows a
 * refresh as running that no worker runs.
 */
export async function compensationRefreshWorkflow(input: CompensationRefreshInput): Promise<CompensationRefreshResult> {
  try {
    return await refreshCompensation(input);
  } catch (err) {
    const cancelled = isCancellation(err);
    const error = cancelled ? 'refresh_cancelled' : rootMessage(err);
    // Non-cancellable: the record must be written even though the workflow itself is being cancelled.
    await CancellationScope.nonCancellable(() => endCompensationRefresh({ refreshId: input.refreshId, state: cancelled ? 'cancelled' : 'failed', error }));
    throw err;
  }
}

function rootMessage(err: unknown): string {
  let e: unknown = err;
  while (e instanceof Error && (e as { cause?: unknown }).cause instanceof Error) e = (e as { cause?: unknown }).cause;
  return e instanceof ApplicationFailure && e.type ? `${e.type}: ${e.message}` : e instanceof Error ? e.message : String(e);
}
