import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * Whether activity tasks wait on `taskQueue` for a worker slot: Temporal's approximate backlog of
 * the queue's activity tasks (DescribeTaskQueue with statistics). A task a polling worker takes at
 * once never enters the backlog, so a backlog means every slot that polls this queue is busy. null
 * when it cannot be told (the server did not answer within `timeoutMs`, or keeps no statistics):
 * an unknown is not "nobody waits".
 */
export async function activitiesWaiting(client: Client, namespace: string, taskQueue: string, timeoutMs = 2_000): Promise<boolean | null> {
  try {
    const res = await client.connection.withDeadline(Date.now() + timeoutMs, () => client.workflowService.describeTaskQueue(describeQueueRequest(namespace, taskQueue, 'activity')));
    return res.stats ? Number(res.stats.approximateBacklogCount ?? 0) > 0 : null;
  } catch {
    return null;
  }
}

/** DescribeTaskQueue of one kind of a queue's tasks, with its approximate statistics. */
export function describeQueueRequest(namespace: string, taskQueue: string, kind: 'workflow' | 'activity'): temporal.api.workflowservice.v1.IDescribeTaskQueueRequest {
  return {
    namespace,
    taskQueue: { name: taskQueue, kind: temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
    taskQueueType: kind === 'workflow' ? temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW : temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
    reportStats: true,
  };
}
