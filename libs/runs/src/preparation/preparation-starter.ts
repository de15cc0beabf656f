import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { JobPreparationInput, prepWorkflowId, SPEND_BUDGET_CHANGED_SIGNAL } from '@jobctrl/pipeline/contracts';
import { startExecution, startPreparationWith } from './preparation-start';

export { startPreparationWith } from './preparation-start';

/**
 * Starts a job's preparation workflow from inside an activity, through the activity's own client.
 * The deterministic id plus USE_EXISTING makes every caller (per-job handoff, fan-outs, recovery)
 * converge on exactly one execution per job; a start that races another is a no-op. The activity's
 * client shares the worker's connection and task queue, so the start is eager (StartOptions).
 * `provider`: the starting worker's model provider, captured in the job's input (see
 * JobPreparationInput.provider).
 */
export async function startPreparation(job: { jobKey: string; idempotencyKey: string }, mode: 'score' | 'full' = 'score', provider?: string): Promise<void> {
  const ctx = Context.current();
  await startPreparationWith(ctx.client, ctx.info.taskQueue, job, mode, { eager: true, ...(provider ? { provider } : {}) });
}

/**
 * A preparation batch's start: the same id, USE_EXISTING for a running execution (a discovery
 * handoff's score-only run is awaited, not duplicated), and a new execution once the previous one
 * closed — batches select jobs by stage, so a closed execution only means the job has more to do.
 */
export async function startPreparationForBatch(input: JobPreparationInput): Promise<void> {
  const ctx = Context.current();
  await startExecution(ctx.client, ctx.info.taskQueue, input, 'ALLOW_DUPLICATE', { eager: true });
}

/** The latest prep-{key} execution's state, for the batch coordinator's poll. */
export async function describePreparation(job: { idempotencyKey: string }): Promise<{ closed: boolean; failed: boolean }> {
  const { client } = Context.current();
  try {
    const { status } = await client.workflow.getHandle(prepWorkflowId(job.idempotencyKey)).describe();
    return { closed: status.name !== 'RUNNING', failed: !['RUNNING', 'COMPLETED', 'CONTINUED_AS_NEW'].includes(status.name) };
  } catch (err) {
    // Never started (or deleted by retention): nothing runs for it, and nothing was prepared.
    if (err instanceof WorkflowNotFoundError) return { closed: true, failed: true };
    throw err;
  }
}

/** Signals paused preparations that the budget is available again (a closed one is simply skipped). */
export async function wakePausedPreparations(jobs: Array<{ idempotencyKey: string }>): Promise<void> {
  const { client } = Context.current();
  await Promise.all(jobs.map((job) => client.workflow.getHandle(prepWorkflowId(job.idempotencyKey)).signal(SPEND_BUDGET_CHANGED_SIGNAL).catch(() => undefined)));
}
