import { proxyActivities, proxyLocalActivities, workflowInfo, ApplicationFailure } from '@temporalio/workflow';
import type { LifecycleActivities, SmokeActivities, SmokeHoldResult, SmokeWorkflowInput, SmokeWorkflowResult } from '@jobctrl/pipeline/contracts';
import { LOCAL_CONTROL_TIMEOUTS, validateSmokeInput } from '@jobctrl/pipeline/contracts';

const { smokeHold } = proxyActivities<SmokeActivities>({
  // The hold heartbeats; a worker that dies mid-hold is noticed within the heartbeat timeout.
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 3 },
});

// Lifecycle writes are short controls: they run in the local control lane, never behind model work.
const { recordWorkflowLifecycle } = proxyLocalActivities<LifecycleActivities>({
  ...LOCAL_CONTROL_TIMEOUTS,
  retry: { maximumAttempts: 10, initialInterval: '1 second' },
});

export async function smokeWorkflow(input: SmokeWorkflowInput): Promise<SmokeWorkflowResult> {
  const errors = validateSmokeInput(input);
  if (errors.length > 0) {
    throw ApplicationFailure.nonRetryable(errors.join('; '), 'invalid_input');
  }
  const info = workflowInfo();
  const base = {
    version: 1 as const,
    tenant: input.tenant ?? 'local',
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
  };
  await recordWorkflowLifecycle({ ...base, eventType: 'started', payload: { activities: input.activities } });

  const results = await Promise.all(
    Array.from({ length: input.activities }, (_, index) => smokeHold({ index, holdMs: input.holdMs })),
  );
  const result = foldSmokeResults(results);

  await recordWorkflowLifecycle({ ...base, eventType: 'completed', payload: { ...result } });
  return result;
}

/** Folds the holds into the run result: the peak is the highest concurrency any hold saw on its worker. */
export function foldSmokeResults(results: SmokeHoldResult[]): SmokeWorkflowResult {
  return {
    completed: results.length,
    maxObservedActive: results.reduce((max, r) => Math.max(max, r.peakActive), 0),
    workers: [...new Set(results.map((r) => r.workerIdentity))].sort(),
  };
}
