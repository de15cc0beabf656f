import { jobActions } from './job-actions';

type Job = Parameters<typeof jobActions>[0];
const prepared: Job = { stage: 'prepared', tailoredResume: { summary: 's' }, coverLetter: { text: 'Dear' }, approval: null, application: null };
const approval = { approvedAt: '2026-01-01T00:00:00Z', answersSha256: 'a', coverLetterSha256: 'c', resumeSha256: 'r' };
const application = (state: NonNullable<Job['application']>['state']): Job['application'] => ({
  state,
  confirmation: null,
  dryRun: false,
  questions: [],
  reason: null,
  screenshots: [],
  startedAt: '2026-01-01T00:00:00Z',
  submittedAt: null,
  updatedAt: '2026-01-01T00:00:00Z',
  workflowId: 'apply-local-j',
});
const enabled = (a: ReturnType<typeof jobActions>) => Object.entries(a).filter(([, s]) => s.enabled).map(([k]) => k).sort();

describe('job actions: enabled only when the API allows them', () => {
  it('a prepared, unapproved job: check and approve; applying waits for the approval', () => {
    const a = jobActions(prepared, 'ready');
    expect(enabled(a)).toEqual(['approve', 'checkAvailability']);
    expect(a.apply.reason).toBe('Approve the application first.');
    expect(a.revoke.reason).toBe('Not approved.');
  });

  it('approval needs the tailored resume and a letter that passed its reviews', () => {
    expect(jobActions({ ...prepared, tailoredResume: null }, 'ready').approve.reason).toBe('Needs a tailored resume.');
    expect(jobActions({ ...prepared, stage: 'cover_rejected' }, 'ready').approve.reason).toBe('Needs a cover letter that passed its reviews.');
    expect(jobActions({ ...prepared, stage: 'scored', tailoredResume: null, coverLetter: null }, 'ready').approve.reason).toBe(
      'Needs a tailored resume and a cover letter that passed its reviews.',
    );
  });

  it('an approved job: revoke, dry run and apply (approval itself already done)', () => {
    const a = jobActions({ ...prepared, approval }, 'ready');
    expect(enabled(a)).toEqual(['apply', 'checkAvailability', 'dryRun', 'revoke']);
    expect(a.approve.reason).toBe('Approved.');
  });

  it('nothing that starts a workflow while the worker is not ready', () => {
    for (const worker of ['stale', 'missing', 'unknown'] as const) {
      const a = jobActions({ ...prepared, approval }, worker);
      expect(enabled(a)).toEqual(['revoke']);
      expect(a.checkAvailability.reason).toMatch(/worker/);
    }
  });

  it('a running, ambiguous or submitted application blocks another attempt; submitted also freezes the approval', () => {
    expect(jobActions({ ...prepared, approval, application: application('running') }, 'ready').apply.reason).toBe('An application is running.');
    expect(jobActions({ ...prepared, approval, application: application('needs_verification') }, 'ready').dryRun.enabled).toBe(false);
    const submitted = jobActions({ ...prepared, approval, application: application('submitted') }, 'ready');
    expect(enabled(submitted)).toEqual(['checkAvailability']);
    // After a dry run, a failure or a question to answer, the user may try again.
    for (const state of ['dry_run_done', 'failed', 'needs_user_input'] as const) {
      expect(enabled(jobActions({ ...prepared, approval, application: application(state) }, 'ready'))).toEqual(['apply', 'checkAvailability', 'dryRun', 'revoke']);
    }
  });

  it('re-prepare follows the API\'s flag and needs a ready worker', () => {
    const allowed = { ...prepared, actions: { prepare: true, prepareRefusal: null } };
    expect(jobActions(allowed, 'ready').reprepare).toEqual({ enabled: true, reason: null });
    expect(jobActions(allowed, 'stale').reprepare.reason).toBe('The worker is not ready.');
    const refused = (code: 'preparation_running' | 'application_submitted', message: string) => ({ ...prepared, actions: { prepare: false, prepareRefusal: { code, message } } });
    expect(jobActions(refused('preparation_running', 'a preparation of job k is running; ask again once it ended'), 'ready').reprepare).toEqual({
      enabled: false,
      reason: 'A preparation of job k is running; ask again once it ended.',
    });
    expect(jobActions(refused('application_submitted', 'job k: this job was submitted with its current resume and letter'), 'ready').reprepare.reason).toBe(
      'Job k: this job was submitted with its current resume and letter.',
    );
    // Off without a reason: the API could not ask Temporal; the page does not guess one.
    expect(jobActions({ ...prepared, actions: { prepare: false, prepareRefusal: null } }, 'ready').reprepare.reason).toMatch(/^Unknown right now/);
    expect(jobActions(prepared, 'ready').reprepare.enabled).toBe(false);
  });

  it('while a request is in flight every action waits', () => {
    expect(enabled(jobActions({ ...prepared, approval }, 'ready', true))).toEqual([]);
  });
});
