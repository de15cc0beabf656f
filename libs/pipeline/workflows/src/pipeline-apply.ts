import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import { executeChild, proxyActivities } from '@temporalio/workflow';
import {
  activityOptions,
  APPLY_TENANT,
  APPLY_WORKFLOW_TYPE,
  applyWorkflowId,
  type ApplyActivities,
  type ApplyInput,
  type ApplyResult,
  type ApplyTarget,
  type PipelineApplyResult,
} from '@jobctrl/pipeline/contracts';

const { selectApprovedJobs } = proxyActivities<ApplyActivities>(activityOptions('applyControl'));

/**
 * A run's apply stage: each approved job through its own ApplyWorkflow child (its own identity,
 * history and one-attempt policy), at most `width` at once. A job whose apply is already running
 * (the same single-flight id, started by the API or another run) is left to it.
 */
export async function runApplyStage(input: { discoveryRunId?: string; width: number }): Promise<PipelineApplyResult> {
  const { targets, budgetSkipped } = await selectApprovedJobs(input.discoveryRunId ? { discoveryRunId: input.discoveryRunId } : {});
  const result: PipelineApplyResult = { selected: targets.length + budgetSkipped, states: {}, alreadyRunning: 0, budgetSkipped };
  const queue = [...targets];
  const lane = async (): Promise<void> => {
    for (let target = queue.shift(); target; target = queue.shift()) {
      const outcome = await applyChild(target);
      if (outcome === 'already_running') result.alreadyRunning += 1;
      else result.states[outcome] = (result.states[outcome] ?? 0) + 1;
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.width, targets.length)) }, lane));
  return result;
}

async function applyChild(target: ApplyTarget): Promise<string> {
  const args: ApplyInput = { tenant: APPLY_TENANT, jobKey: target.jobKey, dryRun: false, checkAvailabilityFirst: target.checkAvailabilityFirst };
  try {
    const done = await executeChild<(i: ApplyInput) => Promise<ApplyResult>>(APPLY_WORKFLOW_TYPE, { workflowId: applyWorkflowId(APPLY_TENANT, target.jobKey), args: [args] });
    return done.state;
  } catch (err) {
    if (err instanceof WorkflowExecutionAlreadyStartedError) return 'already_running';
    // The child recorded how it ended (failed / needs_verification); the run goes on with the others.
    return 'failed';
  }
}
