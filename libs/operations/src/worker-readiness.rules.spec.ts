import { classifyWorkerReadiness, parseHeartbeatRow } from './worker-readiness.rules';

const now = 1_800_000_000_000;
const PAYLOAD = {
  namespace: 'default',
  activity: { remoteActive: 1, localActive: 0, remoteStarted: 3, remoteCompleted: 2, detailTotal: 1, detail: [], throughput: { windowSeconds: 60, remoteCompleted: 2 } },
};
const ctx = { databasePath: '/data/jobctrl.sqlite', appDir: '/data', now, staleMs: 30_000 };

function row(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    workerId: 'w1',
    taskQueue: 'jobctrl-default',
    databasePath: '/data/jobctrl.sqlite',
    appDir: '/data',
    host: 'h',
    pid: 42,
    activitySlots: 4,
    localControlSlots: 2,
    executorWidth: 6,
    schemaVersion: 1,
    payload: JSON.stringify(PAYLOAD),
    startedAt: now - 60_000,
    recordedAt: now - 1_000,
    ...overrides,
  };
}

describe('worker readiness', () => {
  it('is ready with a fresh valid heartbeat for this database', () => {
    const r = classifyWorkerReadiness([row()], ctx);
    expect(r.status).toBe('ready');
    expect(r.freshWorkers).toBe(1);
    expect(r.newest).toMatchObject({ workerId: 'w1', ageMs: 1_000, activitySlots: 4 });
  });

  it('is missing without rows, and says how to start the worker', () => {
    const r = classifyWorkerReadiness([], ctx);
    expect(r.status).toBe('missing');
    expect(r.reason).toContain('start the worker');
  });

  it('is stale when the newest heartbeat is older than the stale limit', () => {
    const r = classifyWorkerReadiness([row({ recordedAt: now - 31_000 })], ctx);
    expect(r.status).toBe('stale');
    expect(r.reason).toContain('31 s old');
  });

  it('is degraded, naming since when, while every fresh worker reports Temporal unreachable; ready again once one reaches it', () => {
    const since = now - 20_000;
    const cutOff = (id: string) => row({ workerId: id, payload: JSON.stringify({ ...PAYLOAD, temporal: { status: 'unreachable', since, error: 'tcp connect error' } }) });
    const r = classifyWorkerReadiness([cutOff('w1'), cutOff('w2')], ctx);
    expect(r.status).toBe('degraded');
    expect(r.temporalUnreachableSince).toBe(new Date(since).toISOString());
    expect(r.reason).toContain(`temporal: unreachable since ${new Date(since).toISOString()}`);
    expect(r.reason).toContain('tcp connect error');
    const back = row({ workerId: 'w3', payload: JSON.stringify({ ...PAYLOAD, temporal: { status: 'reachable', since: now - 1_000, error: null } }) });
    expect(classifyWorkerReadiness([cutOff('w1'), back], ctx)).toMatchObject({ status: 'ready', temporalUnreachableSince: null });
    // A stale row's outage says nothing about now.
    expect(classifyWorkerReadiness([row({ recordedAt: now - 31_000, payload: JSON.stringify({ ...PAYLOAD, temporal: { status: 'unreachable', since, error: null } }) })], ctx).status).toBe('stale');
  });

  it('counts several fresh workers and reports the newest', () => {
    const r = classifyWorkerReadiness([row({ workerId: 'old', recordedAt: now - 5_000 }), row({ workerId: 'new', recordedAt: now - 100 })], ctx);
    expect(r.freshWorkers).toBe(2);
    expect(r.newest?.workerId).toBe('new');
  });

  it.each([
    ['another database', { databasePath: '/other/jobctrl.sqlite' }],
    ['another app dir', { appDir: '/other' }],
    ['an unknown schema version', { schemaVersion: 2 }],
    ['a non-integer pid', { pid: '42' }],
    ['zero activity slots', { activitySlots: 0 }],
    ['a malformed payload', { payload: '{nope' }],
    ['a payload without activity counts', { payload: '{"namespace":"default"}' }],
    ['negative activity counts', { payload: JSON.stringify({ ...PAYLOAD, activity: { ...PAYLOAD.activity, remoteActive: -1 } }) }],
    ['a timestamp from the future', { recordedAt: now + 60_000 }],
    ['a Temporal state that is no state', { payload: JSON.stringify({ ...PAYLOAD, temporal: { status: 'down', since: now } }) }],
  ])('ignores a row with %s', (_label, overrides) => {
    expect(classifyWorkerReadiness([row(overrides)], ctx).status).toBe('missing');
  });

  it('parses a valid row into a heartbeat with its payload', () => {
    expect(parseHeartbeatRow(row())?.payload).toEqual(PAYLOAD);
  });
});
