import { ACTIVITY_DETAIL_CAP, ActivityGauge } from './activity-gauge';

const policy = { allowlist: ['smokeHold'], readableWorkflowId: /^smoke-[a-z0-9-]+$/ };
const runId = '01a22981-7aae-7c53-9351-9d96e2d49d35';

describe('ActivityGauge', () => {
  it('counts every active slot, remote and local separately, and completions', () => {
    const g = new ActivityGauge(policy);
    const a = g.enter({ isLocal: false, activityType: 'smokeHold', attempt: 1 });
    const b = g.enter({ isLocal: true, activityType: 'recordWorkflowLifecycle', attempt: 1 });
    const c = g.enter({ isLocal: false, activityType: 'secretStage', attempt: 1 });
    expect(g.snapshot()).toMatchObject({ remoteActive: 2, localActive: 1, peakRemoteActive: 2, remoteStarted: 2, localStarted: 1 });
    a();
    a(); // idempotent exit
    b();
    expect(g.snapshot()).toMatchObject({ remoteActive: 1, localActive: 0, remoteCompleted: 1, localCompleted: 1 });
    c();
    expect(g.snapshot().remoteActive).toBe(0);
  });

  it('with 25 allowlisted activities running: 25 active, 20 detail items oldest first, exact total 25', () => {
    const g = new ActivityGauge(policy);
    for (let i = 0; i < 25; i++) g.enter({ isLocal: false, activityType: 'smokeHold', workflowId: `smoke-${i}`, runId, attempt: 1 }, 1_000 + i);
    const s = g.snapshot();
    expect(s.remoteActive).toBe(25);
    expect(s.detailTotal).toBe(25);
    expect(s.detail).toHaveLength(ACTIVITY_DETAIL_CAP);
    expect(s.detail[0].workflowId).toBe('smoke-0');
    expect(s.detail[19].workflowId).toBe('smoke-19');
  });

  it('itemises only allowlisted activity types but still counts the others', () => {
    const g = new ActivityGauge(policy);
    g.enter({ isLocal: false, activityType: 'secretStage', workflowId: 'smoke-1', runId, attempt: 1 });
    expect(g.snapshot()).toMatchObject({ remoteActive: 1, detailTotal: 0, detail: [] });
  });

  it('keeps grammar-valid references readable and hashes the rest, stably within the process', () => {
    const g = new ActivityGauge(policy);
    g.enter({ isLocal: false, activityType: 'smokeHold', workflowId: 'smoke-abc', runId, workflowType: 'smokeWorkflow', attempt: 2 });
    g.enter({ isLocal: false, activityType: 'smokeHold', workflowId: 'jane.doe@example.com resume', runId: 'not-a-uuid', workflowType: 'x y', attempt: 1 });
    g.enter({ isLocal: false, activityType: 'smokeHold', workflowId: 'jane.doe@example.com resume', runId: 'not-a-uuid', attempt: 1 });
    const [readable, hashed, again] = g.snapshot().detail;
    expect(readable).toMatchObject({ workflowId: 'smoke-abc', runId, workflowType: 'smokeWorkflow', attempt: 2 });
    expect(hashed.workflowId).toMatch(/^h_[0-9a-f]{16}$/);
    expect(hashed.runId).toMatch(/^h_[0-9a-f]{16}$/);
    expect(hashed.workflowType).toMatch(/^h_/);
    expect(JSON.stringify(hashed)).not.toContain('jane');
    expect(again.workflowId).toBe(hashed.workflowId);
    // Another process (another gauge) hashes differently: the hash is local and opaque.
    const other = new ActivityGauge(policy);
    other.enter({ isLocal: false, activityType: 'smokeHold', workflowId: 'jane.doe@example.com resume', runId, attempt: 1 });
    expect(other.snapshot().detail[0].workflowId).not.toBe(hashed.workflowId);
  });
});

describe('ActivityGauge throughput', () => {
  it('counts remote completions in the trailing ten minutes and reports the window', () => {
    let now = 0;
    const g = new ActivityGauge(policy, () => now);
    for (let i = 0; i < 3; i++) g.enter({ isLocal: false, activityType: 'smokeHold', attempt: 1 })();
    g.enter({ isLocal: true, activityType: 'recordWorkflowLifecycle', attempt: 1 })(); // local: not throughput
    now = 120_000;
    expect(g.snapshot().throughput).toEqual({ windowSeconds: 120, remoteCompleted: 3 });
    now = 11 * 60_000;
    g.enter({ isLocal: false, activityType: 'smokeHold', attempt: 1 })();
    expect(g.snapshot().throughput).toEqual({ windowSeconds: 600, remoteCompleted: 1 });
  });
});
