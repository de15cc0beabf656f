import { tempDbDir } from '@jobctrl/shared/db/testing';
import { openJobStore, seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { JobRepository, PreparationRepository } from '@jobctrl/shared/jobs';
import { artifactSha256, localDayBounds } from './application.model';
import { ApplicationRepository } from './application.repository';

/**
 * Approval, answers and the canonical application record on a real SQLite file (migrated like the
 * app's): who owns a job's apply, which writes land, and what voids an approval.
 */
const dbs = tempDbDir('applications');
afterAll(() => dbs.cleanup());

const T = 'local';
const NOW = new Date(2026, 11, 1, 12, 0, 0).getTime();
const resume = { basics: { name: 'Ada Lovelace', email: 'ada@example.com' }, work: [{ employer: 'Acme', title: 'Engineer' }] };
const letter = (text: string) => ({ text, paragraphs: [text] });

interface World {
  uow: UnitOfWorkFactory;
  jobs: JobRepository;
  prep: PreparationRepository;
  repo: ApplicationRepository;
}

async function world(): Promise<World> {
  const store = await openJobStore(dbs.file('w'));
  return { ...store, repo: new ApplicationRepository(store.uow) };
}

/** A job through the real preparation writes: scored, tailored, and (optionally) a letter that passed review. */
async function prepared(w: World, jobKey: string, opts: { letter?: string | null } = {}): Promise<void> {
  await seedEnrichedJob(w.jobs, { jobKey, title: 'Engineer', company: 'Acme', description: 'Build things.' });
  await w.prep.recordScore(jobKey, { score: 90, detail: {}, profileRevision: 1, threshold: 60 });
  await w.prep.recordTailored(jobKey, resume);
  if (opts.letter === null) return;
  await passLetter(w, jobKey, opts.letter ?? 'Dear Acme, I build things.');
}

async function passLetter(w: World, jobKey: string, text: string): Promise<void> {
  await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET stage = 'pending_cover' WHERE job_key = ?`, [jobKey]));
  await w.prep.recordCoverDraft(jobKey, letter(text));
  await w.prep.recordCoverDecision(jobKey, { accepted: true }, false);
}

async function openCheck(w: World, jobKey: string, checkedAt: number, state = 'open'): Promise<void> {
  await w.uow.run(({ manager }) =>
    manager.query(
      `INSERT INTO job_availability (job_key, state, reason, method, evidence_json, checked_at, checked_url, uncertain_streak, version) VALUES (?, ?, NULL, 'http', '[]', ?, 'https://x', 0, 1)`,
      [jobKey, state, checkedAt],
    ),
  );
}

const claim = (w: World, jobKey: string, runId: string, dryRun = false, now = NOW) => w.repo.claim(T, jobKey, runId, { workflowId: `apply-${T}-${jobKey}`, dryRun }, now);

describe('approval', () => {
  it('approves the exact artifacts (sha256 of the resume, the passed letter and the saved answers) and names what is missing', async () => {
    const w = await world();
    expect(await w.repo.approve('nope')).toEqual({ approved: false, missing: ['job'] });
    await prepared(w, 'no-letter', { letter: null });
    expect(await w.repo.approve('no-letter')).toEqual({ approved: false, missing: ['cover_letter'] });
    // A draft still under review is not a passed letter.
    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET stage = 'pending_cover' WHERE job_key = 'no-letter'`));
    await w.prep.recordCoverDraft('no-letter', letter('draft'));
    expect(await w.repo.approve('no-letter')).toEqual({ approved: false, missing: ['cover_letter'] });
    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET tailored_resume = NULL WHERE job_key = 'no-letter'`));
    expect(await w.repo.approve('no-letter')).toEqual({ approved: false, missing: ['tailored_resume', 'cover_letter'] });
    expect(await w.repo.approvalOf('no-letter')).toBeNull();

    await prepared(w, 'j1');
    const approved = await w.repo.approve('j1', NOW);
    expect(approved).toEqual({
      approved: true,
      approval: { approvedAt: NOW, resumeSha256: artifactSha256(resume), coverLetterSha256: artifactSha256(letter('Dear Acme, I build things.')), answersSha256: artifactSha256({}) },
    });
    expect(await w.repo.approvalOf('j1')).toEqual(approved.approved && approved.approval);
    expect(await w.repo.approvedArtifacts('j1')).toEqual({ approval: approved.approved && approved.approval, tailoredResume: resume, coverLetter: letter('Dear Acme, I build things.'), answers: {} });
  });

  it('a changed letter, resume or answers voids it; the same content in another key order does not; revoke withdraws it', async () => {
    const w = await world();
    await prepared(w, 'j1');
    await w.repo.approve('j1');
    // Key order is not content: the same resume rewritten keeps the approval.
    const reordered = { work: [{ title: 'Engineer', employer: 'Acme' }], basics: { email: 'ada@example.com', name: 'Ada Lovelace' } };
    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET tailored_resume = ? WHERE job_key = 'j1'`, [JSON.stringify(reordered)]));
    expect(await w.repo.approvalOf('j1')).not.toBeNull();

    await passLetter(w, 'j1', 'Dear Acme, a different letter.');
    expect(await w.repo.approvalOf('j1')).toBeNull();
    expect(await w.repo.approvedArtifacts('j1')).toBeNull();
    expect((await w.repo.approvalsOf(['j1'])).get('j1')).toBeNull();

    const again = await w.repo.approve('j1');
    expect(again.approved && again.approval.coverLetterSha256).toBe(artifactSha256(letter('Dear Acme, a different letter.')));
    expect(await w.repo.saveAnswers('j1', { 'How did you hear about us?': 'LinkedIn' })).toBe(true);
    expect(await w.repo.approvalOf('j1')).toBeNull();
    await w.repo.approve('j1');
    expect((await w.repo.approvalOf('j1'))?.answersSha256).toBe(artifactSha256({ 'How did you hear about us?': 'LinkedIn' }));
    expect(await w.repo.answersOf('j1')).toEqual({ 'How did you hear about us?': 'LinkedIn' });

    await w.uow.run(({ manager }) => manager.query(`UPDATE jobs SET tailored_resume = ? WHERE job_key = 'j1'`, [JSON.stringify({ ...resume, summary: 'new' })]));
    expect(await w.repo.approvalOf('j1')).toBeNull();
    await w.repo.approve('j1');
    expect(await w.repo.revoke('j1')).toBe(true);
    expect(await w.repo.revoke('j1')).toBe(false);
    expect(await w.repo.approvalOf('j1')).toBeNull();
    expect(await w.repo.saveAnswers('nope', {})).toBe(false);
  });
});

describe('canonical ownership', () => {
  it('a claim makes its run the owner; a late old ApplyRunStarted cannot establish a new owner, and none of the old run\'s writes land', async () => {
    const w = await world();
    await prepared(w, 'j1');
    await w.repo.approve('j1');
    expect(await claim(w, 'j1', 'run-old')).toMatchObject({ acquired: true, previousOwner: null, application: { ownerRunId: 'run-old', state: 'running', submitIntent: 'none' } });
    // The old attempt was lost before it started; a new run claims the job.
    expect(await claim(w, 'j1', 'run-new')).toMatchObject({ acquired: true, previousOwner: 'run-old', application: { ownerRunId: 'run-new' } });

    // The old run's start arrives late: refused, and the owner stays the new run.
    const late = await w.repo.recordRunStarted(T, 'j1', 'run-old');
    expect(late).toMatchObject({ accepted: false, reason: 'not_owner', application: { ownerRunId: 'run-new' } });
    expect(await w.repo.recordRunStarted(T, 'j1', 'run-new')).toMatchObject({ accepted: true, application: { ownerRunId: 'run-new' } });
    for (const stale of [
      w.repo.recordIntent(T, 'j1', 'run-old'),
      w.repo.recordOutcome(T, 'j1', 'run-old', { state: 'failed', reason: 'late' }),
      w.repo.recordScreenshots(T, 'j1', 'run-old', [{ name: 'old.png', path: '/tmp/old.png' }]),
      w.repo.settle(T, 'j1', { runId: 'run-old', reason: 'lost' }),
    ]) {
      expect(await stale).toMatchObject({ accepted: false, reason: 'not_owner' });
    }
    const app = await w.repo.applicationOf(T, 'j1');
    expect(app).toMatchObject({ ownerRunId: 'run-new', state: 'running', submitIntent: 'none', screenshots: [], reason: null });
    expect((await w.repo.claimEvents(T, 'j1')).map((e) => [e.event, e.runId])).toEqual([
      ['ApplyClaimAcquired', 'run-old'],
      ['ApplyClaimAcquired', 'run-new'],
      ['ApplyRunStarted', 'run-new'],
    ]);
  });

  it('the owner records intent, screenshots and a submission; no run can claim the job after an intent', async () => {
    const w = await world();
    await prepared(w, 'j1');
    await w.repo.approve('j1');
    await claim(w, 'j1', 'r1');
    expect(await w.repo.recordOutcome(T, 'j1', 'r1', { state: 'submitted', confirmation: 'X' })).toMatchObject({ accepted: false, reason: 'no_submit_intent' });
    expect(await w.repo.recordIntent(T, 'j1', 'r1', {}, NOW)).toMatchObject({ accepted: true, application: { submitIntent: 'pending', intentAt: NOW } });
    expect(await w.repo.recordIntent(T, 'j1', 'r1', {}, NOW)).toMatchObject({ accepted: false, reason: 'intent_already_recorded' });
    // Five claims at once after the intent: none is accepted, the record is untouched.
    const claims = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((r) => claim(w, 'j1', r)));
    expect(claims.map((c) => c.acquired === false && c.reason)).toEqual(Array(5).fill('submit_intent_recorded'));
    expect(await w.repo.recordScreenshots(T, 'j1', 'r1', [{ name: 'filled.png', path: '/a/filled.png' }])).toMatchObject({ accepted: true });
    expect(await w.repo.recordOutcome(T, 'j1', 'r1', { state: 'submitted', confirmation: 'GH-123' }, NOW + 5)).toMatchObject({
      accepted: true,
      application: { state: 'submitted', submitIntent: 'confirmed', submittedAt: NOW + 5, confirmation: 'GH-123', screenshots: [{ name: 'filled.png', path: '/a/filled.png' }] },
    });
    // A screenshot of the confirmation page after the outcome still lands; a second outcome does not.
    expect(await w.repo.recordScreenshots(T, 'j1', 'r1', [{ name: 'confirmed.png', path: '/a/confirmed.png' }])).toMatchObject({ accepted: true });
    expect(await w.repo.recordOutcome(T, 'j1', 'r1', { state: 'failed' })).toMatchObject({ accepted: false, reason: 'not_running', application: { state: 'submitted' } });
    expect(await claim(w, 'j1', 'later')).toMatchObject({ acquired: false, reason: 'submit_intent_recorded', application: { state: 'submitted' } });
    expect(await w.repo.admissionInputs(T, 'j1', NOW)).toMatchObject({ submitIntent: 'recorded', submissionsToday: 1 });
  });

  it('the final click is authorised only while the approval matches, in a live attempt, below the daily cap', async () => {
    const w = await world();
    for (const k of ['j1', 'j2', 'j3']) {
      await prepared(w, k);
      await w.repo.approve(k);
    }
    await claim(w, 'j1', 'dry', true);
    expect(await w.repo.recordIntent(T, 'j1', 'dry')).toMatchObject({ accepted: false, reason: 'dry_run' });
    expect(await w.repo.recordOutcome(T, 'j1', 'dry', { state: 'dry_run_done' })).toMatchObject({ accepted: true, application: { state: 'dry_run_done', dryRun: true } });

    await claim(w, 'j1', 'live');
    expect(await w.repo.recordOutcome(T, 'j1', 'live', { state: 'dry_run_done' })).toMatchObject({ accepted: false, reason: 'not_dry_run' });
    await passLetter(w, 'j1', 'Changed while the form was being filled.');
    expect(await w.repo.recordIntent(T, 'j1', 'live')).toMatchObject({ accepted: false, reason: 'not_approved', application: { submitIntent: 'none' } });

    await claim(w, 'j2', 'r2');
    await claim(w, 'j3', 'r3');
    expect(await w.repo.recordIntent(T, 'j2', 'r2', { dailyCap: 1 }, NOW)).toMatchObject({ accepted: true });
    expect(await w.repo.recordIntent(T, 'j3', 'r3', { dailyCap: 1 }, NOW)).toMatchObject({ accepted: false, reason: 'daily_cap_reached' });
    // The cap is per local day: tomorrow the same intent is admitted.
    expect(await w.repo.recordIntent(T, 'j3', 'r3', { dailyCap: 1 }, localDayBounds(NOW).end)).toMatchObject({ accepted: true });
    expect(await w.repo.submissionsToday(NOW)).toBe(1);
    expect(await w.repo.submissionsToday(localDayBounds(NOW).end + 1)).toBe(1);
    expect(await w.repo.submissionsToday(localDayBounds(NOW).start - 1)).toBe(0);
  });

  it('after an intent, any outcome but submitted is needs_verification; a lost attempt settles as needs_verification or failed', async () => {
    const w = await world();
    for (const k of ['j1', 'j2', 'j3']) {
      await prepared(w, k);
      await w.repo.approve(k);
    }
    await claim(w, 'j1', 'r1');
    await w.repo.recordIntent(T, 'j1', 'r1');
    expect(await w.repo.recordOutcome(T, 'j1', 'r1', { state: 'failed', reason: 'page crashed' })).toMatchObject({ accepted: true, application: { state: 'needs_verification', reason: 'page crashed', submitIntent: 'pending' } });
    expect(await w.repo.admissionInputs(T, 'j1', NOW)).toMatchObject({ submitIntent: 'needs_verification' });

    await claim(w, 'j2', 'r2');
    await w.repo.recordIntent(T, 'j2', 'r2');
    expect(await w.repo.settle(T, 'j2', { reason: 'activity lost' })).toMatchObject({ accepted: true, application: { state: 'needs_verification', reason: 'activity lost' } });
    await claim(w, 'j3', 'r3');
    expect(await w.repo.settle(T, 'j3', { reason: 'cancelled', runId: 'r3' })).toMatchObject({ accepted: true, application: { state: 'failed', reason: 'cancelled' } });
    expect(await w.repo.settle(T, 'j3', { reason: 'again' })).toMatchObject({ accepted: false, reason: 'not_running', application: { state: 'failed', reason: 'cancelled' } });
    expect(await w.repo.settle(T, 'nope', { reason: 'x' })).toMatchObject({ accepted: false, reason: 'no_application', application: null });
    // A failed attempt without intent may be claimed again (and its record starts afresh).
    expect(await claim(w, 'j3', 'r4')).toMatchObject({ acquired: true, application: { state: 'running', reason: null } });
    expect(await claim(w, 'nope', 'r5')).toMatchObject({ acquired: false, reason: 'job_gone' });

    expect((await w.repo.claimEvents(T, 'j2')).map((e) => e.event)).toEqual(['ApplyClaimAcquired', 'ApplySubmitIntentRecorded', 'ApplySettled']);
  });

  it("a person's verdict resolves needs_verification only: submitted confirms the click, not submitted frees the job for a new claim", async () => {
    const w = await world();
    for (const k of ['j1', 'j2', 'j3']) {
      await prepared(w, k);
      await w.repo.approve(k);
    }
    const CLICK = NOW + 1_000;
    for (const k of ['j1', 'j2']) {
      await claim(w, k, `r-${k}`);
      await w.repo.recordIntent(T, k, `r-${k}`, {}, CLICK);
      await w.repo.settle(T, k, { reason: 'worker lost' }, CLICK + 1);
    }
    expect(await w.repo.submissionsToday(CLICK)).toBe(2);

    // Submitted: the intent is confirmed and the submission dates from the click.
    expect(await w.repo.verify(T, 'j1', { submitted: true, confirmation: 'APP-123' }, NOW + 60_000)).toMatchObject({
      accepted: true,
      application: { state: 'submitted', submitIntent: 'confirmed', submittedAt: CLICK, confirmation: 'APP-123', reason: 'verified by a person: submitted' },
    });
    expect(await claim(w, 'j1', 'r-again')).toMatchObject({ acquired: false, reason: 'submit_intent_recorded' });

    // Not submitted: failed, the intent cleared (no longer a submission of the day), claimable again.
    expect(await w.repo.verify(T, 'j2', { submitted: false }, NOW + 60_000)).toMatchObject({
      accepted: true,
      application: { state: 'failed', submitIntent: 'none', reason: 'verified by a person: not submitted (was: worker lost)' },
    });
    expect(await w.repo.submissionsToday(CLICK)).toBe(1);
    expect(await w.repo.admissionInputs(T, 'j2', NOW + 60_000)).toMatchObject({ submitIntent: 'none' });
    expect((await w.repo.claimEvents(T, 'j2')).map((e) => [e.event, e.detail])).toEqual([
      ['ApplyClaimAcquired', null],
      ['ApplySubmitIntentRecorded', null],
      ['ApplySettled', 'needs_verification'],
      ['ApplyOutcomeRecorded', 'verified:not_submitted'],
    ]);
    expect(await claim(w, 'j2', 'r-retry')).toMatchObject({ acquired: true, application: { state: 'running', submitIntent: 'none' } });

    // Anything else takes no verdict and is left as it was: a second verdict, a running attempt, no application.
    expect(await w.repo.verify(T, 'j1', { submitted: false })).toMatchObject({ accepted: false, reason: 'not_awaiting_verification', application: { state: 'submitted' } });
    expect(await w.repo.verify(T, 'j2', { submitted: true })).toMatchObject({ accepted: false, reason: 'not_awaiting_verification', application: { state: 'running' } });
    expect(await w.repo.verify(T, 'j3', { submitted: true })).toMatchObject({ accepted: false, reason: 'no_application', application: null });
  });

  it('a needs_user_input outcome keeps its questions', async () => {
    const w = await world();
    await prepared(w, 'j1');
    await claim(w, 'j1', 'r1');
    const questions = [{ key: 'q_game', label: 'What is your favourite board game?', type: 'text' }];
    expect(await w.repo.recordOutcome(T, 'j1', 'r1', { state: 'needs_user_input', questions })).toMatchObject({ accepted: true, application: { state: 'needs_user_input', questions } });
    expect((await w.repo.applicationsOf(T, ['j1', 'other'])).get('j1')).toMatchObject({ questions });
  });
});

describe('the apply stage\'s selection', () => {
  it('selects approved jobs whose approval still holds and that have no submit intent, oldest approval first, optionally of one discovery run', async () => {
    const w = await world();
    for (const k of ['a', 'b', 'c', 'd', 'e']) await prepared(w, k);
    await prepared(w, 'unapproved');
    await w.repo.approve('b', NOW);
    await w.repo.approve('a', NOW + 1);
    await w.repo.approve('c', NOW + 2);
    await w.repo.approve('d', NOW + 3);
    await w.repo.approve('e', NOW + 4);
    await openCheck(w, 'a', NOW - 5);
    await passLetter(w, 'c', 'Changed since approval.');
    await claim(w, 'd', 'r1');
    await w.repo.recordIntent(T, 'd', 'r1');
    await claim(w, 'e', 'r2');
    await w.repo.recordOutcome(T, 'e', 'r2', { state: 'failed', reason: 'board down' });
    expect(await w.repo.selectApproved(T)).toEqual([
      { jobKey: 'b', availability: null, availabilityCheckedAt: null },
      { jobKey: 'a', availability: 'open', availabilityCheckedAt: NOW - 5 },
      { jobKey: 'e', availability: null, availabilityCheckedAt: null },
    ]);
    // seedEnrichedJob observes every job in discovery run r1.
    expect((await w.repo.selectApproved(T, { discoveryRunId: 'r1' })).map((j) => j.jobKey)).toEqual(['b', 'a', 'e']);
    expect(await w.repo.selectApproved(T, { discoveryRunId: 'other-run' })).toEqual([]);
    expect(await w.repo.selectApproved('another-tenant')).toHaveLength(4);
  });
});

describe('admission inputs', () => {
  it('reads approval, availability (blocked is unknown), submit intent and the day\'s submissions', async () => {
    const w = await world();
    expect(await w.repo.admissionInputs(T, 'nope', NOW)).toBeNull();
    await prepared(w, 'j1');
    expect(await w.repo.admissionInputs(T, 'j1', NOW)).toEqual({ approved: false, availability: 'unknown', availabilityCheckedAt: null, submitIntent: 'none', submissionsToday: 0 });
    await w.repo.approve('j1');
    await openCheck(w, 'j1', NOW - 1000);
    expect(await w.repo.admissionInputs(T, 'j1', NOW)).toEqual({ approved: true, availability: 'open', availabilityCheckedAt: NOW - 1000, submitIntent: 'none', submissionsToday: 0 });
    await w.uow.run(({ manager }) => manager.query(`UPDATE job_availability SET state = 'blocked' WHERE job_key = 'j1'`));
    expect(await w.repo.admissionInputs(T, 'j1', NOW)).toMatchObject({ availability: 'unknown' });
  });
});
