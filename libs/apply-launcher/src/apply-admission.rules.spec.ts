import { decideApplyAdmission, type ApplyAdmissionInput } from './apply-admission.rules';

const ready: ApplyAdmissionInput = { approved: true, availability: 'open', submitIntent: 'none', custody: 'free' };

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
  ] as Array<[Partial<ApplyAdmissionInput>, string]>)('refuses %j with %s, scoped to the job', (change, code) => {
    const decision = decideApplyAdmission({ ...ready, ...change });
    expect(decision).toMatchObject({ admit: false, code, blockers: [code], scope: 'job' });
    expect(decision.admit === false && decision.reason.length).toBeGreaterThan(10);
  });

  it('reports the duplicate-submission risk first and lists every blocker', () => {
    const decision = decideApplyAdmission({ approved: false, availability: 'unknown', submitIntent: 'needs_verification', custody: 'held' });
    expect(decision).toMatchObject({
      admit: false,
      code: 'submit_needs_verification',
      blockers: ['submit_needs_verification', 'custody_held', 'not_approved', 'availability_unknown'],
    });
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
  });
});
