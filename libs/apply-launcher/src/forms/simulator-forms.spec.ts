// The form filler against the board simulator's application forms (tools/fixtures): forms we did not
// write, in all three styles, read by label, planned from a profile, filled, submitted once.
import type { Page } from 'playwright-core';
import { DEFAULT_UNKNOWN_QUESTION, FORM_KINDS, startBoardSimulator, type BoardSimulator, type FormField, type FormKind, type ManifestJob } from '@jobctrl/tools/fixtures';
import { planAnswers } from './answer-plan.rules';
import { readApplicationForm } from './application-form.reader';
import { fillApplicationForm, submitApplicationForm } from './application-form.filler';
import type { Applicant, ApplicationForm } from './application-form.types';
import { useFormSession } from './testing/form-session';

jest.setTimeout(90_000);

const session = useFormSession('apply-sim-forms-');
let sim: BoardSimulator;
let page: Page;

beforeAll(async () => {
  sim = await startBoardSimulator({
    seed: 5,
    jobsPerBoard: 4,
    families: [
      { kind: 'greenhouse', token: 'acme' },
      { kind: 'lever', token: 'globex' },
      { kind: 'ashby', token: 'initech' },
    ],
  });
});
afterAll(async () => {
  await sim?.stop();
});
beforeEach(() => {
  page = session.page();
});

function jobOf(kind: FormKind, nth = 0): ManifestJob {
  const job = sim.manifest().jobs.filter((j) => !j.private && j.availability === 'open' && j.applicationForm === kind)[nth];
  if (!job) throw new Error(`no open ${kind} job #${nth}`);
  return job;
}

/** The simulator's own description of a field, by the control name our reader keys it with. */
function simField(job: ManifestJob, name: string): FormField {
  const field = sim.applicationForm(job.gid)?.fields.find((f) => f.name === name);
  if (!field) throw new Error(`the simulator does not describe control ${name}`);
  return field;
}

const applicant = (savedAnswers: Record<string, string> = {}): Applicant => session.applicant(savedAnswers);

async function open(job: ManifestJob): Promise<ApplicationForm> {
  await page.goto(job.applyUrl);
  const form = await readApplicationForm(page);
  if (!form) throw new Error(`no form at ${job.applyUrl}`);
  return form;
}

/** The answers a person saves for what the profile cannot answer (by label, as the UI would show them). */
const PERSON: Record<string, string> = {
  work_authorization: 'Yes',
  sponsorship: 'No',
  privacy_consent: 'yes',
  years_experience: '4',
};

describe.each(FORM_KINDS)('the simulator\'s %s form', (kind) => {
  it('every field is found by the label the simulator shows, with its type and whether it is required', async () => {
    const job = jobOf(kind);
    const form = await open(job);
    const served = sim.applicationForm(job.gid)?.fields ?? [];
    expect(form.questions.map((q) => [q.key, q.label, q.type, q.required])).toEqual(served.map((f) => [f.name, f.label, f.type, f.required]));
  });

  it('unknown required questions are reported (the eligibility ones, consent, the unknown question), then with saved answers it is submitted once and confirmed', async () => {
    const job = jobOf(kind, 1);
    sim.setKnobs({ applications: { [job.gid]: { unknownQuestion: true } } });
    const form = await open(job);
    const first = planAnswers(form, applicant());
    const unknownKeys = first.unknownRequired.map((q) => simField(job, q.key).key);
    expect(unknownKeys).toEqual(expect.arrayContaining(['work_authorization', 'privacy_consent', 'unknown_question']));
    // Only questions a profile cannot answer: nothing the profile holds is asked of the person.
    expect(unknownKeys.filter((k) => !['work_authorization', 'sponsorship', 'privacy_consent', 'unknown_question', 'years_experience'].includes(k))).toEqual([]);
    expect(first.unknownRequired.find((q) => q.label === DEFAULT_UNKNOWN_QUESTION)).toBeDefined();
    // What the profile holds is filled, optional or not (the sample profile has a location and a GitHub link, no LinkedIn).
    const filled = first.fills.map((f) => simField(job, f.question.key).key);
    expect(filled).toEqual(expect.arrayContaining(['email', 'phone', 'resume', 'location']));
    const optionalLeft = first.unknownOptional.map((q) => simField(job, q.key).key);
    expect(optionalLeft.filter((k) => ['location', 'github', 'current_company', 'email', 'phone'].includes(k))).toEqual([]);

    const saved: Record<string, string> = { [DEFAULT_UNKNOWN_QUESTION]: 'Go' };
    for (const q of first.unknownRequired) {
      const key = simField(job, q.key).key;
      if (PERSON[key]) saved[q.label] = PERSON[key];
    }
    const plan = planAnswers(form, applicant(saved));
    expect(plan.unknownRequired).toEqual([]);
    await fillApplicationForm(page, plan);
    let intents = 0;
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 20_000, beforeSubmit: async () => void (intents += 1) });
    const submissions = sim.submissions({ gid: job.gid });
    expect(submissions).toHaveLength(1);
    expect(outcome).toEqual({ outcome: 'confirmed', confirmation: submissions[0].id, detail: 'confirmation shown, HTTP 200' });
    expect(intents).toBe(1);
    expect(sim.applicationAttempts({ gid: job.gid }).map((a) => a.status)).toEqual([200]);
    const answers = submissions[0].answers;
    expect(answers.email).toBe('dana.whitfield@example.com');
    expect(answers.unknown_question).toBe('Go');
    expect(answers.work_authorization).toBe('Yes');
    if (kind === 'greenhouse') expect([answers.first_name, answers.last_name]).toEqual(['Dana', 'Whitfield']);
    else expect(answers.name).toBe('Dana Whitfield');
    expect(submissions[0].files.find((f) => f.key === 'resume')).toMatchObject({ pdf: true, contentType: 'application/pdf' });
  });
});

describe('the simulator\'s unconfirmable outcomes', () => {
  async function submitWith(kind: FormKind, nth: number, confirmation: 'none' | 'hang') {
    const job = jobOf(kind, nth);
    sim.setKnobs({ applications: { [job.gid]: { confirmation } } });
    const form = await open(job);
    const first = planAnswers(form, applicant());
    const saved: Record<string, string> = {};
    for (const q of first.unknownRequired) saved[q.label] = PERSON[simField(job, q.key).key] ?? '';
    const plan = planAnswers(form, applicant(saved));
    expect(plan.unknownRequired).toEqual([]);
    await fillApplicationForm(page, plan);
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 3_000, beforeSubmit: async () => undefined });
    return { job, outcome };
  }

  it('a 200 without a confirmation signal is unconfirmed', async () => {
    const { job, outcome } = await submitWith('lever', 2, 'none');
    expect(outcome).toEqual({ outcome: 'unconfirmed', detail: 'the board answered without a confirmation, HTTP 200' });
    expect(sim.submissions({ gid: job.gid })).toHaveLength(1);
  });

  it('a board that records the application and never answers is unconfirmed, posted to once', async () => {
    const { job, outcome } = await submitWith('ashby', 2, 'hang');
    expect(outcome).toEqual({ outcome: 'unconfirmed', detail: 'no answer from the board within 3000 ms of the submit click' });
    expect(sim.applicationAttempts({ gid: job.gid }).map((a) => a.status)).toEqual([null]);
    expect(sim.submissions({ gid: job.gid })).toHaveLength(1);
  });
});
