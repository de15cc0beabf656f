import { TemporalProbe } from './temporal-probe';

describe('TemporalProbe', () => {
  it('turns unreachable when a check fails, keeps the time the outage began, and turns reachable again', async () => {
    let t = 1_000;
    let up = true;
    const logs: string[] = [];
    const probe = new TemporalProbe({ check: async () => (up ? undefined : Promise.reject(new Error('tcp connect error'))), intervalMs: 1_000, now: () => t, log: (m) => logs.push(m) });
    expect(probe.state()).toEqual({ status: 'reachable', since: 1_000, error: null });
    up = false;
    t = 5_000;
    expect(await probe.probe()).toEqual({ status: 'unreachable', since: 5_000, error: 'tcp connect error' });
    t = 9_000;
    expect(await probe.probe()).toMatchObject({ status: 'unreachable', since: 5_000 });
    up = true;
    t = 12_000;
    expect(await probe.probe()).toEqual({ status: 'reachable', since: 12_000, error: null });
    expect(logs).toEqual([expect.stringContaining('Temporal unreachable (tcp connect error)'), 'Temporal reachable again after 7 s']);
  });

  it('runs one check at a time', async () => {
    let release: () => void = () => undefined;
    let calls = 0;
    const probe = new TemporalProbe({ check: () => ((calls += 1), new Promise<void>((r) => (release = r))), intervalMs: 1_000 });
    const first = probe.probe();
    await probe.probe();
    release();
    await first;
    expect(calls).toBe(1);
  });
});
