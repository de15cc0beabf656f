/**
 * The on-demand compensation refresh (POST /v1/compensation/refresh): one workflow per refresh, whose
 * single remote activity runs the refresh coordinator. The coordinator's bound of N determinations
 * lives inside that activity, so a refresh takes one activity slot, never N.
 */
export const COMPENSATION_REFRESH_WORKFLOW_TYPE = 'compensationRefreshWorkflow';

export function compensationRefreshWorkflowId(refreshId: string): string {
  return `compensation-refresh-${refreshId}`;
}

export interface CompensationRefreshInput {
  refreshId: string;
  /** The jobs to refresh, in this order; null: every stored job. */
  jobKeys: string[] | null;
}

export interface CompensationRefreshCounts {
  jobs: number;
  admitted: number;
  completed: number;
  cached: number;
  failed: number;
  published: number;
}

export interface CompensationRefreshResult {
  state: 'completed' | 'cancelled' | 'failed';
  counts: CompensationRefreshCounts;
}

export interface EndCompensationRefreshInput {
  refreshId: string;
  state: 'cancelled' | 'failed';
  error: string;
}

export interface ClassifyJobCompensationInput {
  jobKey: string;
  /** The job's refresh is `job-{idempotencyKey}`, the same id before each of its preparations. */
  idempotencyKey: string;
}

export interface CompensationActivities {
  refreshCompensation(input: CompensationRefreshInput): Promise<CompensationRefreshResult>;
  /**
   * One job's compensation before it is scored (so the score can weigh pay): the same coordinator as
   * a refresh, over that job's rows. A failed row leaves its pay unknown; it never fails the job.
   */
  classifyJobCompensation(input: ClassifyJobCompensationInput): Promise<CompensationRefreshResult>;
  /** Records how a refresh ended when its activity could not (it failed for good, or was cancelled while queued). */
  endCompensationRefresh(input: EndCompensationRefreshInput): Promise<void>;
}

/** A job's own classification refresh id (see classifyJobCompensation). */
export function jobCompensationRefreshId(idempotencyKey: string): string {
  return `job-${idempotencyKey}`;
}

/**
 * New preparation histories classify a discovered job's compensation before scoring it; histories
 * recorded before this marker replay without that activity.
 */
export const PREP_COMPENSATION_PATCH = 'prep-compensation-before-score-v1';
