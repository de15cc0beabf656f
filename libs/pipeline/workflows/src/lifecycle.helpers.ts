import { proxyLocalActivities, workflowInfo } from '@temporalio/workflow';
import type { LifecycleActivities, LifecycleEventType } from '@jobctrl/pipeline/contracts';
import { LOCAL_CONTROL_TIMEOUTS, retryPolicy } from '@jobctrl/pipeline/contracts';

// Lifecycle writes are short controls: they run in the local control lane, never behind model work.
const { recordWorkflowLifecycle } = proxyLocalActivities<LifecycleActivities>({
  ...LOCAL_CONTROL_TIMEOUTS,
  retry: retryPolicy('recordWorkflowLifecycle'),
});

/** Records this workflow run's lifecycle event (idempotent per tenant/workflow/run/event type). */
export async function recordLifecycle(eventType: LifecycleEventType, payload: Record<string, unknown>, tenant = 'local'): Promise<void> {
  const info = workflowInfo();
  await recordWorkflowLifecycle({
    version: 1,
    tenant,
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    eventType,
    payload,
  });
}
