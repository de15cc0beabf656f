import { WorkflowNotFoundError, type Client } from '@temporalio/client';

/**
 * Whether `workflowId` has a running execution now: a single-flight action answers with that one
 * instead of starting (or charging) anything. An id Temporal never saw is not running.
 */
export async function workflowRunning(client: Client, workflowId: string): Promise<boolean> {
  try {
    const { status } = await client.workflow.getHandle(workflowId).describe();
    return status.name === 'RUNNING';
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}
