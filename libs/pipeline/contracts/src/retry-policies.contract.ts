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
  setPreparationStatus: { maximumAttempts: 10, initialInterval: '1 second' },
  preparationBatchControl: { maximumAttempts: 10, initialInterval: '1 second' },
  recordWorkflowLifecycle: { maximumAttempts: 10, initialInterval: '1 second' },
  checkSpendBudget: { maximumAttempts: 10, initialInterval: '1 second' },
} as const satisfies Record<string, ActivityRetryPolicy>;

export type RetryPolicyName = keyof typeof RETRY_POLICIES;

/** A mutable copy for proxyActivities (the SDK types want string[], not readonly tuples). */
export function retryPolicy(name: RetryPolicyName): RetryPolicy {
  const p: ActivityRetryPolicy = { ...RETRY_POLICIES[name] };
  if (p.nonRetryableErrorTypes) p.nonRetryableErrorTypes = [...p.nonRetryableErrorTypes];
  return p;
}
