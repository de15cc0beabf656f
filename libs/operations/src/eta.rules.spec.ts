import { estimateEta, EtaInput } from './eta.rules';

const base: EtaInput = {
  capacityStatus: 'fresh',
  completed: 120,
  windowSeconds: 600,
  remainingWork: 30,
  activityQueue: { status: 'ok', pollerIdentities: ['w1'] },
  workerIdentities: ['w1'],
};

describe('estimateEta', () => {
  it('divides remaining work by observed throughput', () => {
    expect(estimateEta(base)).toEqual({ status: 'estimated', remainingWork: 30, throughputPerMinute: 12, etaSeconds: 150 });
  });

  it('is idle with nothing left', () => {
    expect(estimateEta({ ...base, remainingWork: 0 })).toMatchObject({ status: 'idle', etaSeconds: 0 });
  });

  it('refuses on unbounded contention before anything else once telemetry is fresh', () => {
    const eta = estimateEta({ ...base, remainingWork: null, activityQueue: { status: 'unavailable', pollerIdentities: [] } });
    expect(eta.status === 'refused' && eta.reason).toMatch(/statistics are unavailable/);
  });

  it.each<[string, Partial<EtaInput>, RegExp]>([
    ['stale telemetry', { capacityStatus: 'stale' }, /telemetry is stale/],
    ['missing telemetry', { capacityStatus: 'missing' }, /telemetry is missing/],
    ['no domain work source', { remainingWork: null }, /no pipeline stage/],
    ['unavailable queue stats', { activityQueue: { status: 'unavailable', pollerIdentities: [] } }, /contention cannot be bounded/],
    ['a foreign poller', { activityQueue: { status: 'ok', pollerIdentities: ['w1', 'other-app'] } }, /1 poller\(s\) without a fresh heartbeat/],
    ['a short window', { windowSeconds: 30 }, /only 30 s/],
    ['no completions', { completed: 0 }, /no activity completed/],
  ])('refuses with %s', (_label, overrides, reason) => {
    const eta = estimateEta({ ...base, ...overrides });
    expect(eta.status).toBe('refused');
    expect(eta.status === 'refused' && eta.reason).toMatch(reason);
  });
});
