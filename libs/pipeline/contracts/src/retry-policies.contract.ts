import type { Duration, RetryPolicy } from '@temporalio/common';
import { SPEND_CEILING_REACHED } from './preparation.contract';

/**
 * Retry policies per activity, from the error taxonomy. docs/retry-policies.md is the readable table
 * of exactly these values (a contracts spec keeps the two in step).
 *
 * Error types an activity raises non-retryably are also listed here, so a policy still holds when a
 * failure arrives without the flag (e.g. wrapped by an interceptor).
 */
export interface ActivityRetryPolicy {
  maximumAttempts: number;
  initialInterval: Duration;
  backoffCoefficient?: number;
  maximumInterval?: Duration;
  nonRetryableErrorTypes?: string[];
}

/** Provider and domain errors that a retry cannot fix (see LLM_ERROR_CODES in shared/llm for the provider side). */
const PREPARATION_FINAL = ['llm_auth', 'llm_bad_request', 'llm_cancelled', 'job_not_found', SPEND_CEILING_REACHED, 'review_database_mismatch'];
const MODEL_BACKOFF = { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', nonRetryableErrorTypes: PREPARATION_FINAL } as const;

export const RETRY_POLICIES = {
  discoverySourceFamily: { maximumAttempts: 3, initialInterval: '5 seconds', nonRetryableErrorTypes: ['malformed_response', 'source_config_invalid'] },
  discoveryControl: { maximumAttempts: 5, initialInterval: '1 second' },
  discoveryEnrichment: { maximumAttempts: 3, initialInterval: '5 seconds' },
  scoreJob: { maximumAttempts: 5, ...MODEL_BACKOFF },
  tailorResume: { maximumAttempts: 4, ...MODEL_BACKOFF },
  writeCoverLetter: { maximumAttempts: 4, ...MODEL_BACKOFF },
  reviewCoverLetter: { maximumAttempts: 4, ...MODEL_BACKOFF },
  // No model: its failures are local (SQLite, a lost worker, an incomplete review pair); a retry
  // resumes from the stage the job reached.
  prepareJobExtractive: { maximumAttempts: 5, initialInterval: '1 second', nonRetryableErrorTypes: PREPARATION_FINAL },
  // A failing job does not fail it (the job is deferred to a workflow of its own); its own failures
  // are local (SQLite, a lost worker) and a retry skips the jobs its heartbeats reported.
  prepareTargetsExtractive: { maximumAttempts: 5, initialInterval: '1 second' },
  // A job's stages in one activity: a retry resumes from the stage the job reached (a draft left
  // unreviewed is reviewed, not rewritten), so the attempts are shared by its stages: more of them.
  prepareJobStages: { maximumAttempts: 8, ...MODEL_BACKOFF },
  setPreparationStatus: { maximumAttempts: 10, initialInterval: '1 second' },
  preparationBatchControl: { maximumAttempts: 10, initialInterval: '1 second' },
  recordWorkflowLifecycle: { maximumAttempts: 10, initialInterval: '1 second' },
  checkSpendBudget: { maximumAttempts: 10, initialInterval: '1 second' },
  cancelPreparation: { maximumAttempts: 10, initialInterval: '1 second' },
  // A leaf's model error fails that row, not the refresh; the activity fails only on its own
  // errors (SQLite, a lost worker), and a retry is a new owner that reuses every cached determination.
  refreshCompensation: { maximumAttempts: 3, initialInterval: '5 seconds' },
  // Before a job's score: a few quick attempts, then the job is scored without (its pay stays unknown).
  classifyJobCompensation: { maximumAttempts: 3, initialInterval: '1 second' },
  compensationControl: { maximumAttempts: 10, initialInterval: '1 second' },
  // A check's failures are local (SQLite, a lost worker); the site's own failures are evidence, not
  // errors. A retry claims the job again (the lost attempt's lease expires or is its own).
  checkPostingAvailability: { maximumAttempts: 3, initialInterval: '5 seconds' },
  // A retried sweep keeps its id and its work budget; the schedule starts the next one anyway.
  runAvailabilitySweep: { maximumAttempts: 2, initialInterval: '5 seconds' },
  availabilityControl: { maximumAttempts: 10, initialInterval: '1 second' },
  // One attempt, by design (spec: "a one-attempt live retry policy"): a lost attempt may have
  // clicked submit, so it ends needs_verification or failed and a person decides — never a retry.
  applyToJob: { maximumAttempts: 1, initialInterval: '1 second' },
  applyControl: { maximumAttempts: 10, initialInterval: '1 second' },
} as const satisfies Record<string, ActivityRetryPolicy>;

export type RetryPolicyName = keyof typeof RETRY_POLICIES;

/** A mutable copy for proxyActivities (the SDK types want string[], not readonly tuples). */
export function retryPolicy(name: RetryPolicyName): RetryPolicy {
  const p: ActivityRetryPolicy = { ...RETRY_POLICIES[name] };
  if (p.nonRetryableErrorTypes) p.nonRetryableErrorTypes = [...p.nonRetryableErrorTypes];
  return p;
}

export interface ActivityTimeouts {
  /** Upper bound of one attempt, however alive its worker is. */
  startToCloseTimeout: Duration;
  /** How soon an attempt held by a dead worker is retried elsewhere. */
  heartbeatTimeout: Duration;
}

/**
 * Short activities: an attempt held by a worker that died (kill -9, OOM, power) is retried ~12 s
 * later (this + the 1-2 s first retry interval) instead of after its whole start-to-close timeout.
 * A live attempt never hits it: the worker's activity interceptor heartbeats on a timer while an
 * activity runs (libs/shared/temporal activity-interceptors.ts), even while it is blocked on a model
 * call or a cooldown.
 */
const SHORT_HEARTBEAT: Duration = '10 seconds';

/**
 * Timeouts of every remote activity, under the names of RETRY_POLICIES (the local control-lane
 * activities, recordWorkflowLifecycle, checkSpendBudget and cancelPreparation, use
 * LOCAL_CONTROL_TIMEOUTS and cannot heartbeat). docs/retry-policies.md lists them too.
 */
export const ACTIVITY_TIMEOUTS = {
  // A family and the enrichment consumer keep 30 s: they wait out host cooldowns of any length
  // (the timer heartbeats cover the wait), and a crawl restarted elsewhere redoes work, so a
  // few seconds' hiccup of a loaded worker should not trigger that.
  discoverySourceFamily: { startToCloseTimeout: '30 minutes', heartbeatTimeout: '30 seconds' },
  discoveryControl: { startToCloseTimeout: '2 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  discoveryEnrichment: { startToCloseTimeout: '2 hours', heartbeatTimeout: '30 seconds' },
  scoreJob: { startToCloseTimeout: '3 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  tailorResume: { startToCloseTimeout: '5 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  writeCoverLetter: { startToCloseTimeout: '5 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  reviewCoverLetter: { startToCloseTimeout: '10 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  prepareJobExtractive: { startToCloseTimeout: '10 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  // It stops taking jobs after its budget (seconds); this bounds the jobs it already took.
  prepareTargetsExtractive: { startToCloseTimeout: '10 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  // The stages' own limits end to end: score 3 + tailor 5 + two drafts of (5 + 10) minutes.
  prepareJobStages: { startToCloseTimeout: '38 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  setPreparationStatus: { startToCloseTimeout: '30 seconds', heartbeatTimeout: SHORT_HEARTBEAT },
  preparationBatchControl: { startToCloseTimeout: '1 minute', heartbeatTimeout: SHORT_HEARTBEAT },
  refreshCompensation: { startToCloseTimeout: '1 hour', heartbeatTimeout: '30 seconds' },
  classifyJobCompensation: { startToCloseTimeout: '3 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  compensationControl: { startToCloseTimeout: '30 seconds', heartbeatTimeout: SHORT_HEARTBEAT },
  // A check or a sweep stops admitting work after 20 minutes (CHECK_WORK_BUDGET_MS) and its own
  // operations are bounded, so it winds down well inside this 30-minute limit.
  checkPostingAvailability: { startToCloseTimeout: '30 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  runAvailabilitySweep: { startToCloseTimeout: '30 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  availabilityControl: { startToCloseTimeout: '30 seconds', heartbeatTimeout: SHORT_HEARTBEAT },
  // Launch, fill (with uploads) and confirm one application; a dead worker is noticed in 10 s.
  applyToJob: { startToCloseTimeout: '15 minutes', heartbeatTimeout: SHORT_HEARTBEAT },
  applyControl: { startToCloseTimeout: '30 seconds', heartbeatTimeout: SHORT_HEARTBEAT },
} as const satisfies Partial<Record<RetryPolicyName, ActivityTimeouts>>;

export type RemoteActivityName = keyof typeof ACTIVITY_TIMEOUTS;

/** The timeouts and retry policy of one remote activity, ready for proxyActivities. */
export function activityOptions(name: RemoteActivityName): ActivityTimeouts & { retry: RetryPolicy } {
  return { ...ACTIVITY_TIMEOUTS[name], retry: retryPolicy(name) };
}
