import { isLocalControlActivity, lifecycleIdempotencyKey, LOCAL_CONTROL_ACTIVITIES, validateSmokeInput } from './index';

describe('contracts', () => {
  it('lifecycle idempotency keys are exact per tenant/workflow/run/event type and unambiguous', () => {
    const base = { tenant: 'local', workflowId: 'wf', runId: 'r1', eventType: 'started' as const };
    expect(lifecycleIdempotencyKey(base)).toBe('local/wf/r1/started');
    expect(lifecycleIdempotencyKey({ ...base, runId: 'r2' })).not.toBe(lifecycleIdempotencyKey(base));
    // A slash inside a part cannot make two different events collide.
    expect(lifecycleIdempotencyKey({ ...base, tenant: 'a/b', workflowId: 'c' })).not.toBe(
      lifecycleIdempotencyKey({ ...base, tenant: 'a', workflowId: 'b/c' }),
    );
  });

  it('the local control allowlist holds only the spec controls', () => {
    expect([...LOCAL_CONTROL_ACTIVITIES].sort()).toEqual(['cancelPreparation', 'checkSpendBudget', 'recordWorkflowLifecycle']);
    expect(isLocalControlActivity('checkSpendBudget')).toBe(true);
    expect(isLocalControlActivity('smokeHold')).toBe(false);
  });

  it('validates smoke input with field names and values', () => {
    expect(validateSmokeInput({ activities: 4, holdMs: 100 })).toEqual([]);
    expect(validateSmokeInput({ activities: 0, holdMs: -1 })).toEqual([
      'activities = 0: must be an integer from 1 to 64',
      'holdMs = -1: must be an integer from 0 to 60000',
    ]);
  });
});
