/**
 * A worker runs this once as it starts, before it reports ready (see warmWorkflowSandbox in
 * apps/worker): the first workflow task a worker executes costs ~150–200 ms more than later ones on
 * 2 cores (its workflow sandbox runs code for the first time), and without it the user's first run
 * paid that. It does nothing: no activity, no lifecycle record, no database write.
 */
export const WORKER_WARM_UP_WORKFLOW_TYPE = 'workerWarmUpWorkflow';

/** One per worker process (its identity), so concurrent starts of several workers never collide. */
export function warmUpWorkflowId(workerIdentity: string): string {
  return `warmup-${workerIdentity}`;
}
