import { AcquisitionBudget, DEFAULT_ACQUISITION_BUDGET_LIMITS } from './acquisition.budget';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

function setup(limits?: ConstructorParameters<typeof AcquisitionBudget>[0]['limits']) {
  const clock = { t: 1_700_000_000_000 };
  const budget = new AcquisitionBudget({ now: () => clock.t, limits });
  const advance = (ms: number) => {
    clock.t += ms;
  };
  const admit = () => {
    const admission = budget.admitSweep();
    if (!admission.admitted) throw new Error(`expected admission, got ${admission.reason}`);
    return admission.sweepId;
  };
  return { budget, clock, advance, admit };
}

describe('AcquisitionBudget', () => {
  it('uses the spec defaults', () => {
    expect(DEFAULT_ACQUISITION_BUDGET_LIMITS).toEqual({ sweepIntervalMs: MINUTE, jobsPerSweep: 25, acquisitionsPerWindow: 100, sweepShare: 80, windowMs: HOUR });
    expect(setup().budget.remaining()).toEqual({ foreground: 100, sweep: 80, used: 0, nextSweepInMs: 0 });
  });

  it('admits at most one sweep per minute', () => {
    const { budget, advance, admit } = setup();
    admit();
    advance(20_000);
    expect(budget.admitSweep()).toEqual({ admitted: false, reason: 'sweep_interval', retryAfterMs: 40_000 });
    advance(40_000);
    expect(budget.admitSweep().admitted).toBe(true);
  });

  it('gives each sweep a distinct id', () => {
    const { advance, admit } = setup();
    const first = admit();
    advance(MINUTE);
    expect(admit()).not.toBe(first);
  });

  it('limits a sweep to 25 jobs', () => {
    const { budget, admit } = setup();
    const sweep = admit();
    for (let i = 0; i < 25; i++) expect(budget.tryAcquire('sweep', sweep).acquired).toBe(true);
    expect(budget.tryAcquire('sweep', sweep)).toEqual({ acquired: false, reason: 'sweep_job_limit' });
    expect(budget.remaining(sweep)).toMatchObject({ used: 25, sweepJobs: 0 });
    // The job limit is per sweep: foreground work is unaffected.
    expect(budget.tryAcquire('foreground').acquired).toBe(true);
  });

  it('stops sweeps at their 80-acquisition share and preserves 20 for foreground work', () => {
    const { budget, advance, admit } = setup();
    for (let s = 0; s < 3; s++) {
      const sweep = admit();
      for (let i = 0; i < 25; i++) budget.tryAcquire('sweep', sweep);
      advance(MINUTE);
    }
    const fourth = admit();
    for (let i = 0; i < 5; i++) expect(budget.tryAcquire('sweep', fourth).acquired).toBe(true);
    expect(budget.remaining()).toMatchObject({ used: 80, sweep: 0, foreground: 20 });
    const denied = budget.tryAcquire('sweep', fourth);
    expect(denied).toMatchObject({ acquired: false, reason: 'sweep_share_exhausted' });
    for (let i = 0; i < 20; i++) expect(budget.tryAcquire('foreground').acquired).toBe(true);
    expect(budget.tryAcquire('foreground')).toMatchObject({ acquired: false, reason: 'hourly_limit_exhausted' });
  });

  it('counts foreground usage against the sweep share', () => {
    const { budget, admit } = setup();
    for (let i = 0; i < 70; i++) budget.tryAcquire('foreground');
    const sweep = admit();
    for (let i = 0; i < 10; i++) expect(budget.tryAcquire('sweep', sweep).acquired).toBe(true);
    expect(budget.tryAcquire('sweep', sweep)).toMatchObject({ reason: 'sweep_share_exhausted' });
  });

  it('refuses to admit a sweep that could not claim anything', () => {
    const { budget, advance } = setup();
    for (let i = 0; i < 80; i++) budget.tryAcquire('foreground');
    advance(10 * MINUTE);
    expect(budget.admitSweep()).toEqual({ admitted: false, reason: 'sweep_share_exhausted', retryAfterMs: 50 * MINUTE });
  });

  it('uses a sliding one-hour window and reports when capacity returns', () => {
    const { budget, advance } = setup();
    for (let i = 0; i < 50; i++) budget.tryAcquire('foreground');
    advance(30 * MINUTE);
    for (let i = 0; i < 50; i++) budget.tryAcquire('foreground');
    expect(budget.tryAcquire('foreground')).toEqual({ acquired: false, reason: 'hourly_limit_exhausted', retryAfterMs: 30 * MINUTE });
    advance(30 * MINUTE - 1);
    expect(budget.tryAcquire('foreground').acquired).toBe(false);
    advance(1);
    // The first 50 expired together; the later 50 remain.
    expect(budget.remaining()).toMatchObject({ used: 50, foreground: 50, sweep: 30 });
    expect(budget.tryAcquire('foreground').acquired).toBe(true);
  });

  it('charges exactly one unit per acquisition and reports what remains', () => {
    const { budget, admit } = setup();
    const sweep = admit();
    const result = budget.tryAcquire('sweep', sweep);
    expect(result).toEqual({ acquired: true, remaining: { foreground: 99, sweep: 79, used: 1, sweepJobs: 24, nextSweepInMs: MINUTE } });
  });

  it('requires a live sweep id for sweep acquisitions', () => {
    const { budget, advance, admit } = setup();
    expect(budget.tryAcquire('sweep')).toEqual({ acquired: false, reason: 'sweep_id_required' });
    expect(budget.tryAcquire('sweep', 'sweep-forged')).toEqual({ acquired: false, reason: 'unknown_sweep' });
    const sweep = admit();
    expect(budget.finishSweep(sweep)).toBe(true);
    expect(budget.tryAcquire('sweep', sweep)).toEqual({ acquired: false, reason: 'unknown_sweep' });
    advance(MINUTE);
    const old = admit();
    // Sweeps admitted a whole window ago are forgotten (their 20-minute work budget is long over).
    advance(HOUR);
    expect(budget.tryAcquire('sweep', old)).toMatchObject({ reason: 'unknown_sweep' });
  });

  it('round-trips through JSON and keeps enforcing the same limits', () => {
    const { budget, clock, advance, admit } = setup();
    const sweep = admit();
    for (let i = 0; i < 24; i++) budget.tryAcquire('sweep', sweep);
    for (let i = 0; i < 3; i++) budget.tryAcquire('foreground');
    advance(10_000);
    const restored = AcquisitionBudget.fromJSON(JSON.parse(JSON.stringify(budget)), { now: () => clock.t });
    expect(restored.remaining(sweep)).toEqual(budget.remaining(sweep));
    expect(restored.tryAcquire('sweep', sweep).acquired).toBe(true);
    expect(restored.tryAcquire('sweep', sweep)).toMatchObject({ reason: 'sweep_job_limit' });
    expect(restored.admitSweep()).toMatchObject({ admitted: false, reason: 'sweep_interval', retryAfterMs: 50_000 });
    expect(restored.toJSON()).toMatchObject({ version: 1, sweepSeq: 1, sweeps: [{ id: sweep, claimed: 25 }] });
  });

  it('drops expired charges from the persisted state', () => {
    const { budget, advance } = setup();
    budget.tryAcquire('foreground');
    advance(HOUR);
    expect(budget.toJSON().charges).toEqual([]);
  });

  it('rejects corrupted persisted state', () => {
    const now = () => 0;
    expect(() => AcquisitionBudget.fromJSON(null, { now })).toThrow(/not an object/);
    expect(() => AcquisitionBudget.fromJSON({ version: 2 }, { now })).toThrow(/unsupported version 2/);
    expect(() => AcquisitionBudget.fromJSON({ version: 1, charges: [{ at: 'x', kind: 'sweep' }], lastSweepAt: null, sweepSeq: 0, sweeps: [] }, { now })).toThrow(/charges\[0\]\.at/);
    expect(() => AcquisitionBudget.fromJSON({ version: 1, charges: [], lastSweepAt: null, sweepSeq: 0, sweeps: [{ id: 's', admittedAt: 0, claimed: -1 }] }, { now })).toThrow(/claimed/);
  });

  it('validates limits and the clock', () => {
    expect(() => new AcquisitionBudget({ now: () => 0, limits: { sweepShare: 120 } })).toThrow(/sweepShare cannot exceed/);
    expect(() => new AcquisitionBudget({ now: () => 0, limits: { jobsPerSweep: 0 } })).toThrow(/jobsPerSweep/);
    expect(() => new AcquisitionBudget({ now: () => Number.NaN }).remaining()).toThrow(/clock returned NaN/);
  });

  it('stays conservative when the clock steps backwards', () => {
    const { budget, advance } = setup({ acquisitionsPerWindow: 2, sweepShare: 1 });
    budget.tryAcquire('foreground');
    advance(-10 * MINUTE);
    budget.tryAcquire('foreground');
    expect(budget.tryAcquire('foreground')).toMatchObject({ acquired: false, reason: 'hourly_limit_exhausted' });
    advance(HOUR);
    // The charge made at the earlier timestamp expires first even though it was recorded second.
    expect(budget.remaining().used).toBe(1);
  });
});
