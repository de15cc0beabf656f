import {
  CHECK_ACTIVITY_TIMEOUT_MS,
  CHECK_WORK_BUDGET_MS,
  JOB_LEASE_MS,
  MAX_BYTES_PER_CHECK,
  MAX_RESPONSE_BYTES,
  OPERATION_TIMEOUT_MS,
  POSTING_CHECK_LIMITS,
} from './posting-check.limits';

describe('posting check limits', () => {
  it('match the specification', () => {
    expect(POSTING_CHECK_LIMITS).toEqual({
      maxPostingRequestsPerCheck: 12,
      maxBrowserResourcesPerCheck: 64,
      maxRedirectHops: 4,
      operationTimeoutMs: 20_000,
      maxResponseBytes: 1_000_000,
      maxBytesPerCheck: 12_000_000,
      jobLeaseMs: 300_000,
      perHostStartSpacingMs: 2_000,
      checkWorkBudgetMs: 1_200_000,
      checkActivityTimeoutMs: 1_800_000,
    });
  });

  it('are internally consistent', () => {
    // The work budget must end before Temporal's activity timeout so a check can wind down cleanly.
    expect(CHECK_WORK_BUDGET_MS).toBeLessThan(CHECK_ACTIVITY_TIMEOUT_MS);
    expect(MAX_RESPONSE_BYTES).toBeLessThanOrEqual(MAX_BYTES_PER_CHECK);
    // A single operation must fit inside a lease, or a slow request could outlive its claim.
    expect(OPERATION_TIMEOUT_MS).toBeLessThan(JOB_LEASE_MS);
  });

  it('cannot be mutated at runtime', () => {
    expect(Object.isFrozen(POSTING_CHECK_LIMITS)).toBe(true);
  });
});
