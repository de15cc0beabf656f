import { Context } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { JobPreparationInput, PREPARATION_OWNER_MEMO, prepWorkflowId, SPEND_BUDGET_CHANGED_SIGNAL } from '@jobctrl/pipeline/contracts';
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
  // A cancelled activity starts nothing more (its run's cancel is cleaning up what it started).
  ctx.cancellationSignal.throwIfAborted();
  await startPreparationWith(ctx.client, ctx.info.taskQueue, job, mode, { eager: true, owner: ownerOf(ctx), ...(provider ? { provider } : {}) });
}

/** The workflow whose activity this is: the owner a started preparation records. */
function ownerOf(ctx: Context): string | undefined {
  return ctx.info.workflowExecution?.workflowId;
}

/**
 * A preparation batch's start: the same id, USE_EXISTING for a running execution (a discovery
 * handoff's score-only run is awaited, not duplicated), and a new execution once the previous one
 * closed — batches select jobs by stage, so a closed execution only means the job has more to do.
 */
export async function startPreparationForBatch(input: JobPreparationInput): Promise<void> {
  const ctx = Context.current();
  ctx.cancellationSignal.throwIfAborted();
  await startExecution(ctx.client, ctx.info.taskQueue, input, 'ALLOW_DUPLICATE', { eager: true, owner: ownerOf(ctx) });
}

/** Describes this many prep-{key} executions at once while a cancelled run looks for its own. */
const CANCEL_CHECKS_AT_ONCE = 16;

/**
 * Owner-scoped preparation cancellation: of these jobs' prep-{key} executions, cancels the running
 * ones one of `owners` started (PREPARATION_OWNER_MEMO); one another path started, or that already
 * closed, is left alone. Returns the jobs whose execution it cancelled. Through the activity's own client.
 */
export async function cancelOwnedPreparations(owners: readonly string[], jobs: ReadonlyArray<{ jobKey: string; idempotencyKey: string }>): Promise<Array<{ jobKey: string; workflowId: string }>> {
  const { client } = Context.current();
  const cancelled: Array<{ jobKey: string; workflowId: string }> = [];
  for (let i = 0; i < jobs.length; i += CANCEL_CHECKS_AT_ONCE) {
    await Promise.all(
      jobs.slice(i, i + CANCEL_CHECKS_AT_ONCE).map(async (job) => {
        const workflowId = prepWorkflowId(job.idempotencyKey);
        const handle = client.workflow.getHandle(workflowId);
        try {
          const d = await handle.describe();
          if (d.status.name !== 'RUNNING' || !owners.includes(String(d.memo?.[PREPARATION_OWNER_MEMO]))) return;
          // The latest run of that id, the one described: a newer execution another owner starts
          // meanwhile is not this run's to cancel.
          await client.workflow.getHandle(workflowId, d.runId).cancel();
          cancelled.push({ jobKey: job.jobKey, workflowId });
        } catch (err) {
          // Never started, or closed between the describe and the cancel: nothing of this run runs there.
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
      }),
    );
  }
  return cancelled;
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
