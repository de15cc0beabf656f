import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { planAnswers, questionSummary } from './answer-plan.rules';
import { readApplicationForm } from './application-form.reader';
import { FormFillError, fillApplicationForm, screenshot, submitApplicationForm } from './application-form.filler';
import type { Applicant, ApplicationForm, FormQuestion } from './application-form.types';
import { renderCoverLetterHtml, renderResumeHtml } from './application-documents';
import { formPage, startFormServer, type FormServer, type FormStyle } from './testing/form-fixtures';
import { SAMPLE_LETTER, useFormSession } from './testing/form-session';

jest.setTimeout(60_000);

const LETTER = SAMPLE_LETTER;
const session = useFormSession('apply-forms-');
let server: FormServer;
let page: Page;
let dir: string;
let resumePdf: string;
let letterPdf: string;

beforeAll(async () => {
  server = await startFormServer();
});
afterAll(async () => {
  await server?.close();
});
beforeEach(() => {
  page = session.page();
  [dir, resumePdf, letterPdf] = [session.dir(), session.resumePdf(), session.letterPdf()];
  server.setConfirmation('page');
});

const applicant = (savedAnswers: Record<string, string> = {}): Applicant => session.applicant(savedAnswers);

async function readStyle(style: FormStyle): Promise<ApplicationForm> {
  await page.setContent(formPage(style));
  const form = await readApplicationForm(page);
  if (!form) throw new Error(`no form read from the ${style} page`);
  return form;
}

const row = (q: FormQuestion) => [q.label, q.type, q.required, ...(q.options ? [q.options] : [])];
const labels = (qs: readonly FormQuestion[]) => qs.map((q) => q.label);
const fillOf = (form: ApplicationForm, a: Applicant, label: string) => planAnswers(form, a).fills.find((f) => f.question.label === label);

describe('readApplicationForm finds questions by their visible labels', () => {
  it('Greenhouse style: label[for] with an asterisk span, a fieldset legend, the application form beside a search form, no hidden honeypot', async () => {
    const form = await readStyle('greenhouse');
    expect(form.questions.map(row)).toEqual([
      ['First Name', 'text', true],
      ['Last Name', 'text', true],
      ['Email', 'text', true],
      ['Phone', 'text', true],
      ['Resume/CV', 'file', true],
      ['Cover Letter', 'file', false],
      ['Years of experience with TypeScript', 'text', true],
      ['What is your favourite board game?', 'text', true],
      ['Are you legally authorized to work in Canada?', 'select', true, ['Yes', 'No']],
      ['How did you hear about us?', 'select', false, ['LinkedIn', 'A friend', 'Job board']],
      ['LinkedIn Profile', 'text', false],
      ['Website', 'text', false],
      ['Gender', 'radio', false, ['Male', 'Female', 'Decline to self-identify']],
      ['I agree to the privacy notice', 'checkbox', false],
    ]);
    expect(form.questions[0].key).toBe('job_application[first_name]');
    expect(form.submit?.label).toBe('Submit Application');
    expect(form.errors).toEqual([]);
  });

  it('Lever style: wrapping labels with ✱, a radio group labelled by the block around it, a checkbox group, the letter text area', async () => {
    const form = await readStyle('lever');
    expect(form.questions.map(row)).toEqual([
      ['Resume/CV', 'file', true],
      ['Full name', 'text', true],
      ['Email', 'email', true],
      ['Phone', 'text', false],
      ['Current company', 'text', false],
      ['LinkedIn URL', 'text', false],
      ['GitHub URL', 'text', false],
      ['Are you legally authorized to work in Germany?', 'radio', true, ['Yes', 'No']],
      ['Years of experience with Kafka', 'select', false, ['0-1 years', '2-4 years', '5+ years']],
      ['Which offices could you work from?', 'checkbox', false, ['Berlin', 'Munich']],
      ['Additional information', 'textarea', false],
      ['Send me future job opportunities', 'checkbox', false],
    ]);
    expect(form.submit?.label).toBe('Submit application');
  });

  it('Ashby style: aria-required, a hidden file input behind an upload button, radio groups named by aria-labelledby', async () => {
    const form = await readStyle('ashby');
    expect(form.questions.map(row)).toEqual([
      ['Name', 'text', true],
      ['Email', 'email', true],
      ['Phone Number', 'tel', false],
      ['Resume', 'file', true],
      ['Cover Letter', 'file', false],
      ['Location', 'text', false],
      ['Years of experience with PostgreSQL', 'text', false],
      ['Are you legally authorized to work in the United States?', 'radio', true, ['Yes', 'No']],
      ['Will you now or in the future require visa sponsorship?', 'radio', false, ['Yes', 'No']],
      ['What is your favourite board game?', 'textarea', false],
    ]);
    expect(form.questions.find((q) => q.type === 'file' && q.required)?.accept).toBe('application/pdf');
  });
});

describe('planAnswers: the profile, saved answers and the documents, never a guess', () => {
  it('fills the profile facts each label asks for and reports every unknown required question', async () => {
    const form = await readStyle('greenhouse');
    const plan = planAnswers(form, applicant());
    expect(Object.fromEntries(plan.fills.map((f) => [f.question.label, [f.display, f.source]]))).toEqual({
      'First Name': ['Dana', 'profile'],
      'Last Name': ['Whitfield', 'profile'],
      Email: ['dana.whitfield@example.com', 'profile'],
      Phone: ['+1 416 555 0199', 'profile'],
      'Resume/CV': [resumePdf, 'resume'],
      'Cover Letter': [letterPdf, 'cover_letter'],
      // Acme, Jun 2017 – Feb 2021, is the only role whose bullets mention TypeScript: 45 months.
      'Years of experience with TypeScript': ['3', 'profile'],
    });
    // The profile says Toronto, Canada: that is no answer to a work-authorisation question.
    expect(labels(plan.unknownRequired)).toEqual(['What is your favourite board game?', 'Are you legally authorized to work in Canada?']);
    expect(labels(plan.unknownOptional)).toEqual(['How did you hear about us?', 'LinkedIn Profile', 'Website', 'Gender', 'I agree to the privacy notice']);
    expect(plan.unknownRequired.map(questionSummary)[1]).toEqual({
      key: 'job_application[answers_attributes][2][boolean_value]',
      label: 'Are you legally authorized to work in Canada?',
      type: 'select',
      required: true,
      options: ['Yes', 'No'],
    });
  });

  it('answers a yes/no radio only from a saved answer (by key or by label), and refuses one that names no choice', async () => {
    const form = await readStyle('lever');
    const authorised = 'Are you legally authorized to work in Germany?';
    expect(fillOf(form, applicant(), authorised)).toBeUndefined();
    expect(labels(planAnswers(form, applicant()).unknownRequired)).toEqual([authorised]);
    expect(fillOf(form, applicant({ 'are you legally authorized to work in germany': 'yes' }), authorised)?.value).toEqual({ kind: 'choice', choices: [{ label: 'Yes', value: 'Yes', index: 0 }] });
    expect(fillOf(form, applicant({ 'cards[a1b2][field0]': 'No' }), authorised)?.display).toBe('No');
    const maybe = planAnswers(form, applicant({ [authorised]: 'maybe' }));
    expect(maybe.unknownRequired).toEqual([expect.objectContaining({ label: authorised, reason: '"maybe" matches none of: Yes | No' })]);
  });

  it('a range select takes the range holding the years; the current employer and links come from the profile; the letter fills Lever\'s text area', async () => {
    const form = await readStyle('lever');
    const plan = planAnswers(form, applicant());
    const display = Object.fromEntries(plan.fills.map((f) => [f.question.label, f.display]));
    // Globex, Mar 2021 – Jun 2025 (asOf), mentions Kafka: 52 months, 4 whole years.
    expect(display['Years of experience with Kafka']).toBe('2-4 years');
    expect(display['Current company']).toBe('Globex');
    expect(display['GitHub URL']).toBe('https://github.com/dwhitfield');
    expect(display['Full name']).toBe('Dana Whitfield');
    expect(display['Additional information']).toBe(LETTER);
    expect(labels(plan.unknownOptional)).toEqual(['LinkedIn URL', 'Which offices could you work from?', 'Send me future job opportunities']);
  });

  it('a skill no dated role mentions has no years (not zero); two current roles name no current employer', async () => {
    const form = await readStyle('ashby');
    const a = applicant();
    a.profile.experience = a.profile.experience.filter((e) => e.employer !== 'Globex');
    expect(planAnswers(form, a).unknownOptional.find((q) => q.label === 'Years of experience with PostgreSQL')?.reason).toBe('no dated role in the profile mentions PostgreSQL');
    const lever = await readStyle('lever');
    const two = applicant();
    two.profile.experience.push({ employer: 'Initech', title: 'Advisor', start: '2024-01', end: null, bullets: [] });
    expect(fillOf(lever, two, 'Current company')).toBeUndefined();
  });
});

describe('fill and submit against a board that takes multipart posts', () => {
  async function openFilled(style: FormStyle, saved: Record<string, string>) {
    await page.goto(server.url(style));
    const form = (await readApplicationForm(page)) as ApplicationForm;
    const plan = planAnswers(form, applicant(saved));
    await fillApplicationForm(page, plan);
    return { form, plan };
  }

  it('Greenhouse: uploads PDFs, calls beforeSubmit once right before the only post, and reads the confirmation id', async () => {
    const { form, plan } = await openFilled('greenhouse', { 'What is your favourite board game?': 'Go', 'job_application[answers_attributes][2][boolean_value]': 'yes' });
    expect(plan.unknownRequired).toEqual([]);
    const before = server.submissions().length;
    const seenAtIntent: number[] = [];
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 20_000, beforeSubmit: async () => void seenAtIntent.push(server.submissions().length) });
    expect(outcome).toEqual({ outcome: 'confirmed', confirmation: 'GR-' + (4800 + before + 1), detail: 'confirmation shown, HTTP 200' });
    expect(seenAtIntent).toEqual([before]);
    const posted = server.submissions().slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0].fields).toMatchObject({
      'job_application[first_name]': 'Dana',
      'job_application[last_name]': 'Whitfield',
      'job_application[email]': 'dana.whitfield@example.com',
      'job_application[answers_attributes][0][text_value]': '3',
      'job_application[answers_attributes][1][text_value]': 'Go',
      'job_application[answers_attributes][2][boolean_value]': '1',
      'job_application[answers_attributes][3][text_value]': '',
      website_url_hp: '',
    });
    expect(posted[0].fields['job_application[gender]']).toBeUndefined();
    expect(posted[0].files.map((f) => [f.field, f.filename, f.type, f.head])).toEqual([
      ['job_application[resume]', 'resume.pdf', 'application/pdf', '%PDF-'],
      ['job_application[cover_letter]', 'cover-letter.pdf', 'application/pdf', '%PDF-'],
    ]);
  });

  it('a board that re-renders the form with an error is a rejection, not a confirmation', async () => {
    const { form, plan } = await openFilled('greenhouse', { 'job_application[answers_attributes][2][boolean_value]': 'no' });
    expect(labels(plan.unknownRequired)).toEqual(['What is your favourite board game?']);
    const before = server.submissions().length;
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 20_000, beforeSubmit: async () => undefined });
    expect(outcome).toMatchObject({ outcome: 'rejected', errors: ['This field is required.'] });
    expect(server.submissions()).toHaveLength(before);
    // The re-rendered form names the error too.
    expect((await readApplicationForm(page))?.errors).toEqual(['This field is required.']);
  });

  it('Lever: a 200 without a confirmation is unconfirmed; the radio and the letter text arrive', async () => {
    server.setConfirmation('none');
    const { form } = await openFilled('lever', { 'Are you legally authorized to work in Germany?': 'No' });
    const before = server.submissions().length;
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 20_000, beforeSubmit: async () => undefined });
    expect(outcome).toEqual({ outcome: 'unconfirmed', detail: 'the board answered without a confirmation, HTTP 200' });
    const posted = server.submissions().slice(before);
    expect(posted).toHaveLength(1);
    // Browsers send a text area's line breaks as CRLF.
    expect(posted[0].fields).toMatchObject({ name: 'Dana Whitfield', 'cards[a1b2][field0]': 'No', 'cards[a1b2][field1]': '2-4', comments: LETTER.replace(/\n/g, '\r\n'), org: 'Globex', 'urls[LinkedIn]': '' });
    expect(posted[0].fields['consent[marketing]']).toBeUndefined();
    expect(posted[0].files[0]).toMatchObject({ field: 'resume', head: '%PDF-' });
  });

  it('Ashby: a script-posted form confirmed in place; an unknown optional question is sent empty', async () => {
    const { form } = await openFilled('ashby', { 'Are you legally authorized to work in the United States?': 'Yes' });
    const before = server.submissions().length;
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 20_000, beforeSubmit: async () => undefined });
    expect(outcome).toMatchObject({ outcome: 'confirmed', confirmation: 'AS-' + (4800 + before + 1) });
    const posted = server.submissions().slice(before);
    expect(posted).toHaveLength(1);
    expect(posted[0].fields).toMatchObject({ _systemfield_name: 'Dana Whitfield', 'f3c9e1d2-authorized': 'true', 'd2e6-game': '', 'b5d1-pg': '4', 'a7e2-location': 'Toronto, Canada' });
    expect(posted[0].fields['c8d4-sponsorship']).toBeUndefined();
    expect(posted[0].files.map((f) => f.head)).toEqual(['%PDF-', '%PDF-']);
  });

  it('a board that takes the post and never answers is unconfirmed after the deadline, and is never posted to twice', async () => {
    server.setConfirmation('hang');
    const { form } = await openFilled('greenhouse', { 'What is your favourite board game?': 'Chess', 'Are you legally authorized to work in Canada?': 'Yes' });
    const before = server.submissions().length;
    let intents = 0;
    const outcome = await submitApplicationForm(page, { form, timeoutMs: 1_500, beforeSubmit: async () => void (intents += 1) });
    expect(outcome).toEqual({ outcome: 'unconfirmed', detail: 'no answer from the board within 1500 ms of the submit click' });
    expect(intents).toBe(1);
    // Whatever the page does next, nothing clicks again.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    expect(server.submissions().slice(before).map((s) => s.fields['job_application[answers_attributes][1][text_value]'])).toEqual(['Chess']);
    const shot = await screenshot(page, path.join(dir, 'shots', 'hang.png'));
    expect(fs.readFileSync(shot).subarray(1, 4).toString('latin1')).toBe('PNG');
  });

  it('a failing intent checkpoint, or a form the browser would not send, clicks nothing', async () => {
    const { form } = await openFilled('greenhouse', { 'What is your favourite board game?': 'Go', 'Are you legally authorized to work in Canada?': 'Yes' });
    const before = server.submissions().length;
    await expect(submitApplicationForm(page, { form, timeoutMs: 5_000, beforeSubmit: async () => Promise.reject(new Error('intent not persisted')) })).rejects.toThrow('intent not persisted');
    // Lever's resume input is `required`: unfilled, the browser's validation would refuse, so no intent is written.
    await page.goto(server.url('lever'));
    let intents = 0;
    await expect(submitApplicationForm(page, { timeoutMs: 5_000, beforeSubmit: async () => void (intents += 1) })).rejects.toThrow(FormFillError);
    expect(intents).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(server.submissions()).toHaveLength(before);
  });

  it('a value the page does not keep fails the fill before anything is submitted', async () => {
    await page.goto(server.url('greenhouse'));
    const form = (await readApplicationForm(page)) as ApplicationForm;
    const plan = planAnswers(form, applicant());
    await page.evaluate(`document.getElementById('phone').maxLength = 4`);
    await expect(fillApplicationForm(page, plan)).rejects.toThrow('"Phone" (job_application[phone]) holds "+1 4", not the planned value');
  });
});

describe('documents', () => {
  it('the resume and letter print to PDFs; the HTML escapes what the user wrote', () => {
    expect(fs.readFileSync(resumePdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(fs.readFileSync(letterPdf).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const html = renderResumeHtml(
      { summary: 'Ships <script>alert(1)</script> & more', skills: ['C#'], experience: [{ employer: 'A&B', title: 'Dev', start: '2020-03', end: null, bullets: ['x < y'] }], education: [] },
      { name: 'Dana', email: 'd@example.com' },
    );
    expect(html).toContain('Ships &#60;script&#62;alert(1)&#60;/script&#62; &#38; more');
    expect(html).toContain('Mar 2020 – Present');
    expect(html).not.toContain('<script>');
    expect(renderCoverLetterHtml('One.\n\nTwo\nlines.', { name: 'Dana', email: 'd@example.com' })).toContain('<p>One.</p>\n<p>Two<br>lines.</p>');
  });
});
