import { patched, proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { PreparationCancellationActivities, PreparationTarget } from '@jobctrl/pipeline/contracts';
import { LOCAL_CONTROL_TIMEOUTS, RUN_CANCEL_REACHES_PREPARATIONS_PATCH, retryPolicy } from '@jobctrl/pipeline/contracts';
import { describeFailure } from './lifecycle.helpers';

// Owner-scoped preparation cancellation is a short control: the local control lane, never behind the
// model work it is there to stop.
const { cancelPreparation } = proxyLocalActivities<PreparationCancellationActivities>({
  ...LOCAL_CONTROL_TIMEOUTS,
  retry: retryPolicy('cancelPreparation'),
});

/**
 * A cancelled coordinator's last control before it records itself cancelled: the prep-{key}
 * executions it started (this workflow's id is their owner; `alsoOwners`: its run's other
 * coordinators) among `jobs` and the discovery run's members are cancelled, so the run stops spending when it reads cancelled — before, the cancel
 * reached the coordinator only and its preparations kept calling the model. Call it inside
 * CancellationScope.nonCancellable. Returns why it could not, for the run's lifecycle record (the
 * cancel itself stands either way), or null.
 */
export async function cancelOwnPreparations(scope: { jobs?: PreparationTarget[]; discoveryRunId?: string; batchId?: string; alsoOwners?: string[] }): Promise<string | null> {
  if (!patched(RUN_CANCEL_REACHES_PREPARATIONS_PATCH)) return null;
  const { alsoOwners = [], ...targets } = scope;
  try {
    await cancelPreparation({ owners: [workflowInfo().workflowId, ...alsoOwners], ...targets });
    return null;
  } catch (err) {
    return `its preparations could not all be cancelled: ${describeFailure(err)}`;
  }
}
