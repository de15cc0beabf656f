/**
 * Saved posting checks (issue #11): is a saved job's posting still open?
 *
 * Two workflows. A foreground check (POST /v1/jobs/:jobKey/availability-check) is one
 * postingCheckWorkflow per job, id `posting-check-{jobKey}`, whose single activity checks that job;
 * the API charged its acquisition to the foreground share before starting it. A sweep is one
 * availabilitySweepWorkflow started by the Temporal Schedule every minute: a short activity admits
 * the sweep against the workspace budget (≤ 1 a minute), then one remote activity checks up to 25
 * due jobs one after another within the 20-minute work budget — one activity slot, never 25.
 */
export const POSTING_CHECK_WORKFLOW_TYPE = 'postingCheckWorkflow';
export const AVAILABILITY_SWEEP_WORKFLOW_TYPE = 'availabilitySweepWorkflow';

export function postingCheckWorkflowId(jobKey: string): string {
  return `posting-check-${jobKey}`;
}

/** One schedule per task queue (tests run several workers against one dev server). */
export function availabilitySweepScheduleId(taskQueue: string): string {
  return `availability-sweeps-${taskQueue}`;
}

/** The schedule appends each run's time to this id. */
export function availabilitySweepWorkflowId(taskQueue: string): string {
  return `availability-sweep-${taskQueue}`;
}

export interface PostingCheckInput {
  jobKey: string;
}

/** How a check of one job ended. */
export type PostingCheckOutcome =
  /** The verdict was recorded. */
  | 'recorded'
  /** The job changed under the check (URL, content, or another verdict landed): the newer state stands. */
  | 'rejected'
  /** Another check holds the job's lease; its verdict will land instead. */
  | 'busy'
  /** Refused locally (cancelled, work budget): nothing recorded about the employer. */
  | 'refused'
  | 'job_gone';

export interface PostingCheckResult {
  jobKey: string;
  outcome: PostingCheckOutcome;
  /** The recorded state (outcome `recorded`), else null. */
  state: 'open' | 'closed' | 'unknown' | 'blocked' | null;
  /** For `rejected`/`refused`: why. */
  reason: string | null;
}

export type SweepAdmissionResult =
  | { admitted: true; sweepId: string; admittedAt: number }
  | { admitted: false; reason: 'disabled' | 'sweep_interval' | 'sweep_share_exhausted'; retryAfterMs: number | null };

export interface RunAvailabilitySweepInput {
  sweepId: string;
  /** When the sweep was admitted: its 20-minute work budget runs from here, across activity retries. */
  admittedAt: number;
}

export interface AvailabilitySweepResult {
  sweepId: string | null;
  /** Jobs claimed (and charged to the sweep share). */
  claimed: number;
  recorded: number;
  rejected: number;
  refused: number;
  /** Why the sweep stopped claiming: no_due_jobs, sweep_job_limit, sweep_share_exhausted, work_budget, yielded (other activities waited for a slot), cancelled, … */
  stoppedBy: string;
}

export interface PostingCheckActivities {
  checkPostingAvailability(input: PostingCheckInput): Promise<PostingCheckResult>;
  admitAvailabilitySweep(): Promise<SweepAdmissionResult>;
  runAvailabilitySweep(input: RunAvailabilitySweepInput): Promise<AvailabilitySweepResult>;
}
