import { Context } from '@temporalio/activity';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { JobPreparationInput, PREPARATION_WORKFLOW_TYPE, prepWorkflowId } from '@jobctrl/pipeline/contracts';

/**
 * Starts a job's preparation workflow from inside an activity, through the activity's own client.
 * The deterministic id plus USE_EXISTING makes every caller (per-job handoff, fan-outs, recovery)
 * converge on exactly one execution per job; a start that races another is a no-op.
 */
export async function startPreparation(job: { jobKey: string; idempotencyKey: string }): Promise<void> {
  const ctx = Context.current();
  const input: JobPreparationInput = { jobKey: job.jobKey, idempotencyKey: job.idempotencyKey, mode: 'score' };
  try {
    await ctx.client.workflow.start(PREPARATION_WORKFLOW_TYPE, {
      taskQueue: ctx.info.taskQueue,
      workflowId: prepWorkflowId(job.idempotencyKey),
      args: [input],
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (err) {
    // A closed execution with this id means the job was already prepared (reuse policy refuses it).
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}
