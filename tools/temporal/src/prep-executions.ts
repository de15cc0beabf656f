// `prep-*` executions as Temporal's visibility API lists them: how the fault suite (tools/faults) and
// the worker's kill tests count duplicate preparations, from the outside, the same way.
import { defaultPayloadConverter } from '@temporalio/common';
import type { Client } from '@temporalio/client';

export interface PrepExecution {
  workflowId: string;
  runId: string;
  status: string;
  /** The input's mode: 'score' (discovery's per-job handoff) or 'full' (a batch), the two legitimate executions of one job. */
  mode: string;
}

/**
 * Every prep-* execution, closed or running, through the visibility API (by id prefix; a server
 * without STARTS_WITH falls back to the workflow type, filtered by prefix here), with its mode read
 * from the first event of its history.
 */
export async function prepExecutions(client: Client): Promise<PrepExecution[]> {
  const found: Array<{ workflowId: string; runId: string; status: string }> = [];
  const collect = async (query: string) => {
    for await (const wf of client.workflow.list({ query })) {
      if (wf.workflowId.startsWith('prep-')) found.push({ workflowId: wf.workflowId, runId: wf.runId, status: wf.status.name });
    }
  };
  try {
    await collect(`WorkflowId STARTS_WITH 'prep-'`);
  } catch {
    found.length = 0;
    await collect(`WorkflowType = 'jobPreparationWorkflow'`);
  }
  const out: PrepExecution[] = [];
  for (const e of found) {
    const history = await client.workflow.getHandle(e.workflowId, e.runId).fetchHistory();
    const payload = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads?.[0];
    const input = payload ? defaultPayloadConverter.fromPayload<{ mode?: string }>(payload) : {};
    out.push({ ...e, mode: input.mode ?? 'score' });
  }
  return out;
}

/**
 * Executions beyond one per job per mode that did or do real work (running or completed): a failed
 * execution started again by recovery is a retry, not a second preparation, and is counted apart.
 */
export function duplicatePreparations(executions: PrepExecution[], idempotencyKeys: Set<string>): { duplicates: number; failedRetried: number; ids: string[] } {
  const byKey = new Map<string, number>();
  let failedRetried = 0;
  for (const e of executions) {
    if (!idempotencyKeys.has(e.workflowId.slice('prep-'.length))) continue;
    if (e.status !== 'RUNNING' && e.status !== 'COMPLETED') {
      failedRetried += 1;
      continue;
    }
    const key = `${e.workflowId}\u0000${e.mode}`;
    byKey.set(key, (byKey.get(key) ?? 0) + 1);
  }
  const dup = [...byKey].filter(([, n]) => n > 1);
  return { duplicates: dup.reduce((s, [, n]) => s + n - 1, 0), failedRetried, ids: dup.map(([k]) => k.replace('\u0000', ' ')) };
}

