/** See WORKER_WARM_UP_WORKFLOW_TYPE: one workflow task that completes at once. */
export async function workerWarmUpWorkflow(): Promise<void> {
  return;
}
