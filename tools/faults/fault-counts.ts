// What a fault case is judged on, counted from the outside only: the simulator's manifest (what should
// exist), the API (what the user sees) and Temporal's visibility API (what ran).
import type { PrepExecution } from '@jobctrl/tools/temporal';
import type { FaultStack } from './fault-stack';

// Counted the same way by the worker's kill tests (apps/worker), hence kept in tools/temporal.
export { duplicatePreparations, prepExecutions, type PrepExecution } from '@jobctrl/tools/temporal';

export interface RunView {
  runId: string;
  state: string;
  blockedReason: string | null;
  familiesFailed: string[];
  error: string | null;
  jobsDiscovered: number;
  preparation: { selected: number; completed: number; failed: number } | null;
  [key: string]: unknown;
}

export interface JobRow {
  jobKey: string;
  idempotencyKey: string;
  stage: string;
  [key: string]: unknown;
}

export const TERMINAL_RUN_STATES = new Set(['completed', 'failed', 'cancelled', 'terminated', 'timed_out']);
const PENDING_STAGES = new Set(['pending_enrichment', 'pending_score', 'pending_tailor', 'pending_cover']);

export async function jobsOfRun(stack: FaultStack, runId: string): Promise<JobRow[]> {
  const rows: JobRow[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await stack.json<{ items: JobRow[]; total: number }>(`/v1/jobs?runId=${encodeURIComponent(runId)}&limit=100&offset=${offset}`);
    rows.push(...page.items);
    if (rows.length >= page.total || page.items.length === 0) return rows;
  }
}

export function runningPreps(executions: PrepExecution[], idempotencyKeys: Set<string>): number {
  return executions.filter((e) => e.status === 'RUNNING' && idempotencyKeys.has(e.workflowId.slice('prep-'.length))).length;
}

/**
 * A job whose detail capture failed retryably waits in pending_enrichment for its next attempt, which
 * the worker's retry pass makes after a backoff of minutes (then, the attempts spent, it goes on with
 * what its source gave): deferred with a reason and a time, not lost.
 */
export function deferredJob(detail: Record<string, unknown>): boolean {
  return detail['stage'] === 'pending_enrichment' && detail['enrichmentStatus'] === 'failed_retryable' && !!detail['enrichmentError'] && !!detail['enrichmentNextAttemptAt'];
}

/** Jobs a settled run leaves waiting with nothing running or scheduled for them: as good as lost. */
export function stuckJobs(details: Array<Record<string, unknown>>): Array<Record<string, unknown>> {
  return details.filter((d) => PENDING_STAGES.has(String(d['stage'])) && !deferredJob(d));
}

/**
 * Failures the user is shown without a reason. A failed run must carry `error`; a failed family its
 * error in `familyFailures`; a job whose capture failed or whose letter was rejected must say why in
 * its detail.
 */
export function unclearFailures(run: RunView, details: Array<Record<string, unknown>>): string[] {
  const out: string[] = [];
  if (run.state === 'failed' && !run.error) out.push(`run ${run.runId} failed without error`);
  if (run.error && /without a recorded reason/.test(run.error)) out.push(`run ${run.runId}: ${run.error}`);
  const failures = (run['familyFailures'] ?? []) as Array<{ family: string; error: string | null }>;
  for (const family of run.familiesFailed) {
    if (!failures.find((f) => f.family === family)?.error) out.push(`family ${family} failed: the run view names it without a reason`);
  }
  for (const d of details) {
    const enrichment = d['enrichment'] as { status?: string; error?: string | null } | undefined;
    const status = (d['enrichmentStatus'] as string | undefined) ?? enrichment?.status;
    const error = (d['enrichmentError'] as string | null | undefined) ?? enrichment?.error;
    if ((status === 'failed' || status === 'source_only') && !error) out.push(`job ${String(d['jobKey'])}: enrichment ${status} without a reason`);
    if (d['stage'] === 'cover_rejected') {
      const text = JSON.stringify(d['coverReview'] ?? d['reviews'] ?? null);
      if (!/issues?/i.test(text) || text === 'null') out.push(`job ${String(d['jobKey'])}: cover_rejected without review issues`);
    }
  }
  return out;
}
