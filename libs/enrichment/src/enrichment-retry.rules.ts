import type { EnrichmentStatus } from '@jobctrl/shared/jobs';

/**
 * How often and how far apart a retryable detail-capture failure (robots.txt unreachable, 5xx,
 * timeout) is tried again before the job goes on to scoring with what its source gave.
 */
export interface EnrichmentRetryPolicy {
  /** Captures in all, the first one included. */
  maxAttempts: number;
  /** Wait after the first failure; each later one waits `factor` times longer. */
  baseDelayMs: number;
  factor: number;
}

/**
 * 4 attempts, 1 / 4 / 16 minutes apart: a host that is down for a few minutes is still enriched,
 * and a job whose host stays unreachable is scored from its source about 21 minutes after discovery
 * rather than never.
 */
export const DEFAULT_ENRICHMENT_RETRY: EnrichmentRetryPolicy = { maxAttempts: 4, baseDelayMs: 60_000, factor: 4 };

export interface EnrichmentOutcome {
  status: EnrichmentStatus;
  method?: string;
  error?: string;
  descriptionText?: string | null;
  nextAttemptAt?: number;
}

/**
 * What to record for a capture that ended in a retryable failure and was the `attempt`-th one:
 * another attempt after the backoff, or — the attempts spent — `source_only`, which moves the job
 * on with its source's description and says why in the job's enrichment error.
 */
export function settleRetryableFailure(failure: EnrichmentOutcome, attempt: number, policy: EnrichmentRetryPolicy, now: number): EnrichmentOutcome {
  if (attempt < policy.maxAttempts) {
    return { ...failure, status: 'failed_retryable', nextAttemptAt: now + policy.baseDelayMs * policy.factor ** (attempt - 1) };
  }
  return {
    status: 'source_only',
    method: failure.method,
    error: `detail page not captured after ${attempt} attempts (last: ${failure.error ?? 'retryable failure'}); scored with the source's own description`,
  };
}
