import { ApplicationFailure, proxyLocalActivities, TemporalFailure, workflowInfo } from '@temporalio/workflow';
import type { LifecycleActivities, LifecycleEventType } from '@jobctrl/pipeline/contracts';
import { LOCAL_CONTROL_TIMEOUTS, retryPolicy } from '@jobctrl/pipeline/contracts';

// Lifecycle writes are short controls: they run in the local control lane, never behind model work.
const { recordWorkflowLifecycle } = proxyLocalActivities<LifecycleActivities>({
  ...LOCAL_CONTROL_TIMEOUTS,
  retry: retryPolicy('recordWorkflowLifecycle'),
});

/**
 * Records this workflow run's lifecycle event (idempotent per tenant/workflow/run/event type). The
 * run is the continue-as-new chain, named by its first execution: a continued execution records its
 * outcome on the same projection row that its first execution started.
 */
export async function recordLifecycle(eventType: LifecycleEventType, payload: Record<string, unknown>, tenant = 'local'): Promise<void> {
  const info = workflowInfo();
  await recordWorkflowLifecycle({
    version: 1,
    tenant,
    workflowId: info.workflowId,
    runId: info.firstExecutionRunId,
    workflowType: info.workflowType,
    eventType,
    payload,
  });
}

/**
 * The root cause of a failure in words: a child or activity failure wraps the error that stopped it
 * ("Child Workflow execution failed" says nothing), so the deepest cause is what a person reads.
 */
export function describeFailure(err: unknown): string {
  let cause: unknown = err;
  while (cause instanceof TemporalFailure && cause.cause) cause = cause.cause;
  if (cause instanceof ApplicationFailure) return `${cause.type ?? 'error'}: ${cause.message}`;
  return cause instanceof Error ? cause.message : String(cause);
}
