/**
 * Applying (issue #12). One ApplyWorkflow per job, id `apply-{tenant}-{jobKey}` (the
 * apply-launcher lib's applyWorkflowId), started with USE_EXISTING so a repeat request joins the
 * running one; its live activity has a one-attempt retry policy, so a lost attempt is never
 * re-submitted automatically (it ends needs_verification or failed, and a person decides).
 */
export const APPLY_WORKFLOW_TYPE = 'applyWorkflow';

/** The only tenant until jobctrl has accounts. */
export const APPLY_TENANT = 'local';

export const APPLICATION_STATES = ['running', 'needs_user_input', 'submitted', 'needs_verification', 'failed', 'dry_run_done'] as const;
export type ApplicationState = (typeof APPLICATION_STATES)[number];

export interface ApplyInput {
  tenant: string;
  jobKey: string;
  /** Fill everything, screenshot, never click submit. */
  dryRun: boolean;
  /**
   * The posting has no `open` check younger than 24 h: the workflow checks it first (the API charged
   * that check to the foreground share), and the attempt's own admission then needs it open.
   */
  checkAvailabilityFirst?: boolean;
}

export interface ApplyResult {
  jobKey: string;
  state: ApplicationState;
  /** The confirmation text or id the board showed (submitted). */
  confirmation: string | null;
  /** Required questions the profile and saved answers cannot answer (needs_user_input). */
  questions: Array<{ key: string; label: string; type: string; options?: string[] }>;
  /** Why it failed or needs verification. */
  reason: string | null;
}

/** A job the pipeline's apply stage applies to. */
export interface ApplyTarget {
  jobKey: string;
  checkAvailabilityFirst: boolean;
}

export interface SelectApprovedJobsInput {
  /** The run's discovery: only its jobs. Absent: every approved job not yet applied to. */
  discoveryRunId?: string;
}

export interface ApplyActivities {
  /**
   * The approved jobs of a run's apply stage. A job whose availability is not a fresh `open` check
   * gets one charged to the foreground share here (budgetSkipped when the hour's share is spent).
   */
  selectApprovedJobs(input: SelectApprovedJobsInput): Promise<{ targets: ApplyTarget[]; budgetSkipped: number }>;
  /** The whole attempt: claim, admission re-check, launch, fill, intent checkpoint, submit, confirm, clean up. */
  applyToJob(input: ApplyInput): Promise<ApplyResult>;
  /**
   * Records how an apply ended when its activity could not (it was lost, or the workflow was
   * cancelled): `needs_verification` when a submit intent was recorded (it may have been submitted),
   * else `failed`. Never retried into another submission.
   */
  endApplication(input: { tenant: string; jobKey: string; reason: string }): Promise<ApplyResult>;
}
