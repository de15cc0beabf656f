import { Client, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import { JobPreparationInput, PREPARATION_OWNER_MEMO, PREPARATION_WORKFLOW_TYPE, prepWorkflowId } from '@jobctrl/pipeline/contracts';

// Starting prep-{idempotency_key} through a client. Apart from preparation-starter.ts (the activity
// side, which reads the activity's own client from @temporalio/activity) so the API process can
// start a preparation (POST /v1/jobs/:jobKey/prepare) without loading the activity SDK.

export async function startPreparationWith(
  client: Client,
  taskQueue: string,
  job: { jobKey: string; idempotencyKey: string },
  mode: 'score' | 'full' = 'score',
  options: { provider?: string } & StartOptions = {},
): Promise<void> {
  const { provider, ...start } = options;
  try {
    // USE_EXISTING only covers a running execution; once it closed, a late handoff or fan-out must
    // not start a second one. Only a failed preparation may be started again (by recovery) — and a
    // straggler carried on in full mode, whose score-only execution closed at pending_tailor.
    await startExecution(client, taskQueue, { jobKey: job.jobKey, idempotencyKey: job.idempotencyKey, mode, ...(provider ? { provider } : {}) }, mode === 'full' ? 'ALLOW_DUPLICATE' : 'ALLOW_DUPLICATE_FAILED_ONLY', start);
  } catch (err) {
    // A completed execution with this id: the job was already prepared (the reuse policy refuses it).
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

export interface StartOptions {
  /**
   * Ask for eager start: the server hands the new execution's first workflow task back in the
   * start's reply, to the worker whose client started it, instead of through the task queue — one
   * matching round trip less per job (bench:rescore at 2 lanes: a prep workflow 278 → 227 ms, 6.3 →
   * 7.6 jobs/s). Only for a client on the worker's own NativeConnection starting on the worker's own
   * task queue, i.e. an activity's client (the SDK refuses it on any other connection). A server
   * that does not offer it, a worker without a free workflow slot or an execution that already runs
   * makes it an ordinary start.
   */
  eager?: boolean;
  /**
   * The workflow whose activity starts it (PREPARATION_OWNER_MEMO): a cancelled run cancels the
   * executions it started, and only those. USE_EXISTING keeps the first starter's memo.
   */
  owner?: string;
}

/** Every path starts prep-{idempotency_key} with USE_EXISTING; they differ only in the reuse policy. */
export function startExecution(client: Client, taskQueue: string, input: JobPreparationInput, reuse: 'ALLOW_DUPLICATE' | 'ALLOW_DUPLICATE_FAILED_ONLY', options: StartOptions = {}) {
  return client.workflow.start(PREPARATION_WORKFLOW_TYPE, {
    ...(options.eager ? { requestEagerStart: true } : {}),
    ...(options.owner ? { memo: { [PREPARATION_OWNER_MEMO]: options.owner } } : {}),
    taskQueue,
    workflowId: prepWorkflowId(input.idempotencyKey),
    args: [input],
    workflowIdConflictPolicy: 'USE_EXISTING',
    workflowIdReusePolicy: reuse,
  });
}
