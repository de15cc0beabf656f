import * as fs from 'node:fs';
import * as path from 'node:path';
import { ACTIVITY_TIMEOUTS, RETRY_POLICIES, type ActivityRetryPolicy } from './retry-policies.contract';

/** docs/retry-policies.md is the readable form of RETRY_POLICIES; this keeps them from drifting. */
describe('retry policies', () => {
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'retry-policies.md'), 'utf8');
  const rows = new Map(
    doc
      .split('\n')
      .filter((line) => /^\| [a-zA-Z]+ \| \d+ \|/.test(line))
      .map((line) => {
        const cells = line.split('|').slice(1, -1).map((c) => c.trim());
        return [cells[0], cells] as const;
      }),
  );

  it('documents every activity policy, and only those', () => {
    expect([...rows.keys()].sort()).toEqual(Object.keys(RETRY_POLICIES).sort());
  });

  it.each(Object.entries(RETRY_POLICIES))('%s matches its row', (name, policy: ActivityRetryPolicy) => {
    const [, attempts, first, backoff, longest, never] = rows.get(name) ?? [];
    expect(Number(attempts)).toBe(policy.maximumAttempts);
    expect(first).toBe(policy.initialInterval);
    expect(Number(backoff)).toBe(policy.backoffCoefficient ?? 2);
    expect(longest).toBe(policy.maximumInterval ?? '—');
    expect(never).toBe(policy.nonRetryableErrorTypes?.join(', ') ?? '—');
  });

  it('documents every activity timeout as configured', () => {
    const documented = doc
      .split('\n')
      .filter((line) => /^\| [a-zA-Z]+ \| \d+ (second|minute|hour)s? \|/.test(line))
      .map((line) => line.split('|').slice(1, -1).map((c) => c.trim()));
    const configured = Object.entries(ACTIVITY_TIMEOUTS).map(([name, t]) => [name, t.startToCloseTimeout, t.heartbeatTimeout]);
    expect(documented).toEqual(configured);
  });
});
