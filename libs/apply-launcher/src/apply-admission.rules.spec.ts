import { AVAILABILITY_FRESH_MS, decideApplyAdmission, type ApplyAdmissionInput } from './apply-admission.rules';

const NOW = Date.UTC(2026, 11, 1, 12, 0, 0);
const ready: ApplyAdmissionInput = {
  approved: true,
  availability: 'open',
  availabilityCheckedAt: NOW - 3_600_000,
  submitIntent: 'none',
  custody: 'free',
  submissionsToday: 0,
  dailyCap: 10,
  dryRun: false,
  now: NOW,
};

describe('decideApplyAdmission', () => {
  it('admits an approved, open job with no submit intent and free custody', () => {
    expect(decideApplyAdmission(ready)).toEqual({ admit: true });
  });

  it.each([
    [{ approved: false }, 'not_approved'],
    [{ availability: 'closed' }, 'posting_closed'],
    [{ availability: 'unknown' }, 'availability_unknown'],
    [{ submitIntent: 'recorded' }, 'submit_already_recorded'],
    [{ submitIntent: 'needs_verification' }, 'submit_needs_verification'],
    [{ custody: 'held' }, 'custody_held'],
    [{ custody: 'cleanup_failed' }, 'custody_cleanup_failed'],
    [{ availabilityCheckedAt: NOW - AVAILABILITY_FRESH_MS - 1 }, 'availability_stale'],
    [{ availabilityCheckedAt: null }, 'availability_stale'],
    [{ submissionsToday: 10 }, 'daily_cap_reached'],
    [{ submissionsToday: 11 }, 'daily_cap_reached'],
    [{ dailyCap: 0 }, 'daily_cap_reached'],
  ] as Array<[Partial<ApplyAdmissionInput>, string]>)('refuses %j with %s, scoped to the job', (change, code) => {
    const decision = decideApplyAdmission({ ...ready, ...change });
    expect(decision).toMatchObject({ admit: false, code, blockers: [code], scope: 'job' });
    expect(decision.admit === false && decision.reason.length).toBeGreaterThan(10);
  });

  it('reports the duplicate-submission risk first and lists every blocker', () => {
    const decision = decideApplyAdmission({ ...ready, approved: false, availability: 'unknown', submitIntent: 'needs_verification', custody: 'held', submissionsToday: 10 });
    expect(decision).toMatchObject({
      admit: false,
      code: 'submit_needs_verification',
      blockers: ['submit_needs_verification', 'custody_held', 'not_approved', 'availability_unknown', 'daily_cap_reached'],
    });
  });

  it('an open check exactly 24 h old is still fresh; one millisecond older is stale', () => {
    expect(decideApplyAdmission({ ...ready, availabilityCheckedAt: NOW - AVAILABILITY_FRESH_MS })).toEqual({ admit: true });
    expect(decideApplyAdmission({ ...ready, availabilityCheckedAt: NOW - AVAILABILITY_FRESH_MS - 1 })).toMatchObject({ code: 'availability_stale' });
  });

  it('a closed or unknown posting is reported as such, not as stale', () => {
    expect(decideApplyAdmission({ ...ready, availability: 'closed', availabilityCheckedAt: 0 })).toMatchObject({ blockers: ['posting_closed'] });
  });

  it('exempts only a dry run from the daily cap, and reports the cap after everything else', () => {
    expect(decideApplyAdmission({ ...ready, submissionsToday: 10, dryRun: true })).toEqual({ admit: true });
    expect(decideApplyAdmission({ ...ready, submissionsToday: 10, approved: false })).toMatchObject({ code: 'not_approved', blockers: ['not_approved', 'daily_cap_reached'] });
  });

  it('puts custody problems before missing approval', () => {
    expect(decideApplyAdmission({ ...ready, approved: false, custody: 'cleanup_failed' })).toMatchObject({ code: 'custody_cleanup_failed' });
  });

  it('fails closed on values it does not know', () => {
    const odd = (change: Record<string, unknown>) => decideApplyAdmission({ ...ready, ...change } as unknown as ApplyAdmissionInput);
    expect(odd({ approved: 'true' })).toMatchObject({ admit: false, code: 'not_approved' });
    expect(odd({ approved: 1 })).toMatchObject({ admit: false, code: 'not_approved' });
    expect(odd({ availability: 'OPEN' })).toMatchObject({ admit: false, code: 'availability_unknown' });
    expect(odd({ submitIntent: 'submitted_maybe' })).toMatchObject({ admit: false, code: 'submit_needs_verification' });
    expect(odd({ custody: undefined })).toMatchObject({ admit: false, code: 'custody_cleanup_failed' });
    expect(odd({ availabilityCheckedAt: String(NOW) })).toMatchObject({ admit: false, code: 'availability_stale' });
    expect(odd({ now: undefined })).toMatchObject({ admit: false, code: 'availability_stale' });
    expect(odd({ availabilityCheckedAt: Number.NaN })).toMatchObject({ admit: false, code: 'availability_stale' });
    expect(odd({ submissionsToday: undefined })).toMatchObject({ admit: false, code: 'daily_cap_reached' });
    expect(odd({ submissionsToday: '0' })).toMatchObject({ admit: false, code: 'daily_cap_reached' });
    expect(odd({ submissionsToday: -1 })).toMatchObject({ admit: false, code: 'daily_cap_reached' });
    expect(odd({ dailyCap: Number.POSITIVE_INFINITY })).toMatchObject({ admit: false, code: 'daily_cap_reached' });
    expect(odd({ dryRun: 'true', submissionsToday: 10 })).toMatchObject({ admit: false, code: 'daily_cap_reached' });
  });
});
