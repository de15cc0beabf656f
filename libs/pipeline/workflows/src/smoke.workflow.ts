import { proxyActivities, ApplicationFailure } from '@temporalio/workflow';
import type { SmokeActivities, SmokeHoldResult, SmokeWorkflowInput, SmokeWorkflowResult } from '@jobctrl/pipeline/contracts';
import { validateSmokeInput } from '@jobctrl/pipeline/contracts';
import { recordLifecycle } from './lifecycle.helpers';

const { smokeHold } = proxyActivities<SmokeActivities>({
  // The hold heartbeats; a worker that dies mid-hold is noticed within the heartbeat timeout.
  startToCloseTimeout: '2 minutes',
  heartbeatTimeout: '20 seconds',
  retry: { maximumAttempts: 3 },
});

export async function smokeWorkflow(input: SmokeWorkflowInput): Promise<SmokeWorkflowResult> {
  const errors = validateSmokeInput(input);
  if (errors.length > 0) {
    throw ApplicationFailure.nonRetryable(errors.join('; '), 'invalid_input');
  }
  const tenant = input.tenant ?? 'local';
  await recordLifecycle('started', { activities: input.activities }, tenant);

  const results = await Promise.all(
    Array.from({ length: input.activities }, (_, index) => smokeHold({ index, holdMs: input.holdMs })),
  );
  const result = foldSmokeResults(results);

  await recordLifecycle('completed', { ...result }, tenant);
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
