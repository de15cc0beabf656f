/**
 * Workflow lifecycle events are written by a versioned local control activity. The idempotency key is
 * exact per tenant/workflow/run/event type, so an activity retry after a committed write adds nothing.
 */
export type LifecycleEventType = 'started' | 'completed' | 'failed' | 'cancelled';

export interface LifecycleEventInput {
  /** Bumped when the payload shape changes; old histories replay with the version they recorded. */
  version: 1;
  tenant: string;
  workflowId: string;
  runId: string;
  workflowType: string;
  eventType: LifecycleEventType;
  payload: Record<string, unknown>;
}

export interface LifecycleEventResult {
  /** false when the same idempotency key was already committed (a retry after a committed write). */
  inserted: boolean;
  idempotencyKey: string;
}

export function lifecycleIdempotencyKey(e: Pick<LifecycleEventInput, 'tenant' | 'workflowId' | 'runId' | 'eventType'>): string {
  return [e.tenant, e.workflowId, e.runId, e.eventType].map(encodeURIComponent).join('/');
}

export interface LifecycleActivities {
  recordWorkflowLifecycle(input: LifecycleEventInput): Promise<LifecycleEventResult>;
}
