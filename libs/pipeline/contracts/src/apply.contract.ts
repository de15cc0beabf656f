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

export interface ApplyActivities {
  /** The whole attempt: claim, admission re-check, launch, fill, intent checkpoint, submit, confirm, clean up. */
  applyToJob(input: ApplyInput): Promise<ApplyResult>;
  /** Records how an apply ended when its activity could not (it was lost, or the workflow was cancelled). */
  endApplication(input: { tenant: string; jobKey: string; state: 'failed' | 'needs_verification'; reason: string }): Promise<void>;
}
