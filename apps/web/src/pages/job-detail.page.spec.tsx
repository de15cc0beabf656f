import '../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { answer, fetchCalls, installFetch, type Route as FakeRoute } from '../testing/fake-fetch';
import { JobDetailPage } from './job-detail.page';

afterEach(cleanup);

const KEY = 'gh:acme:1';
const PATH = `/v1/jobs/${encodeURIComponent(KEY)}`;
const job = (prepare: boolean, stage = 'cover_rejected', prepareRefusal: { code: string; message: string } | null = null) => ({
  jobKey: KEY,
  title: 'Platform Engineer',
  company: 'Acme',
  location: 'Berlin',
  remote: false,
  url: 'https://boards.example/acme/1',
  stage,
  score: 72,
  scoreDetail: null,
  tailoredResume: null,
  coverLetter: null,
  coverReview: null,
  coverAttempts: 3,
  compensation: null,
  salaryText: null,
  availability: null,
  approval: null,
  application: null,
  descriptionText: 'Build the platform.',
  enrichmentStatus: 'enriched',
  firstSeenAt: '2026-01-01T00:00:00Z',
  actions: { prepare, prepareRefusal },
});
const ready = { worker: { status: 'ready', reason: 'heartbeat 1 s ago' } };

function renderPage(routes: FakeRoute[]) {
  installFetch([['GET /v1/health', () => answer(200, ready)], ...routes]);
  render(
    <MemoryRouter initialEntries={[`/jobs/${encodeURIComponent(KEY)}`]}>
      <Routes>
        <Route path="/jobs/:jobKey" element={<JobDetailPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const actions = async () => screen.findByRole('region', { name: 'Actions' });

describe('Job detail: Re-prepare', () => {
  it('enabled when the API allows it: a click starts the preparation and names its workflow', async () => {
    renderPage([
      [`GET ${PATH}`, () => answer(200, job(true))],
      [`POST ${PATH}/prepare`, () => answer(202, { workflowId: 'prep-local-gh-acme-1-r2' })],
    ]);
    const region = await actions();
    const button = (await within(region).findByRole('button', { name: 'Re-prepare' })) as HTMLButtonElement;
    // On once the worker is known to be ready.
    await waitFor(() => expect(button.disabled).toBe(false));
    await act(async () => fireEvent.click(button));
    expect((await within(region).findByRole('status', { name: '' })).textContent).toContain('prep-local-gh-acme-1-r2');
    expect(fetchCalls().filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([`${PATH}/prepare`]);
  });

  it('a 409 shows the API\'s reason and code', async () => {
    renderPage([
      [`GET ${PATH}`, () => answer(200, job(true))],
      [`POST ${PATH}/prepare`, () => answer(409, { statusCode: 409, code: 'preparation_running', message: 'a preparation of job gh:acme:1 is running (prep-x); ask again once it ended', workflowId: 'prep-x' })],
    ]);
    const region = await actions();
    const button = await within(region).findByRole('button', { name: 'Re-prepare' });
    await act(async () => fireEvent.click(button));
    expect((await within(region).findByRole('alert')).textContent).toBe('a preparation of job gh:acme:1 is running (prep-x); ask again once it ended (preparation_running)');
  });

  it('off, with the reason beside it, when the API does not allow it; the other actions keep their rules', async () => {
    const refusal = { code: 'not_enriched', message: 'job gh:acme:1 is still waiting for its detail page; it is prepared once enriched' };
    renderPage([[`GET ${PATH}`, () => answer(200, job(false, 'pending_enrichment', refusal))]]);
    const region = await actions();
    const button = (await within(region).findByRole('button', { name: 'Re-prepare' })) as HTMLButtonElement;
    expect(button.disabled).toBe(true);
    expect(document.getElementById(button.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Job gh:acme:1 is still waiting for its detail page; it is prepared once enriched.');
    expect((within(region).getByRole('button', { name: 'Approve' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

describe('Job detail: verifying an ambiguous application', () => {
  const ambiguous = {
    ...job(false, 'prepared'),
    application: {
      state: 'needs_verification',
      workflowId: 'apply-local-x',
      dryRun: false,
      submittedAt: null,
      confirmation: null,
      questions: [],
      screenshots: [],
      reason: 'worker lost after the click',
      startedAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
    },
  };

  it('records "submitted" with the confirmation typed, then reloads the job', async () => {
    let gets = 0;
    renderPage([
      [`GET ${PATH}`, () => (gets++, answer(200, ambiguous))],
      [`POST ${PATH}/application/verification`, () => answer(200, { ...ambiguous.application, state: 'submitted', confirmation: 'APP-9' })],
    ]);
    const group = await screen.findByRole('group', { name: 'Verify the application' });
    fireEvent.change(within(group).getByRole('textbox'), { target: { value: '  APP-9 ' } });
    await act(async () => fireEvent.click(within(group).getByRole('button', { name: 'It was submitted' })));
    const post = fetchCalls().find((c) => c.method === 'POST');
    expect(post).toMatchObject({ path: `${PATH}/application/verification`, body: { submitted: true, confirmation: 'APP-9' } });
    await waitFor(() => expect(gets).toBe(2));
  });

  it('"not submitted" asks first, and a 409 shows its reason', async () => {
    renderPage([
      [`GET ${PATH}`, () => answer(200, ambiguous)],
      [`POST ${PATH}/application/verification`, () => answer(409, { statusCode: 409, code: 'application_not_awaiting_verification', message: 'job gh:acme:1\'s application is submitted' })],
    ]);
    const group = await screen.findByRole('group', { name: 'Verify the application' });
    const confirm = jest.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    await act(async () => fireEvent.click(within(group).getByRole('button', { name: 'It was not submitted' })));
    expect(fetchCalls().filter((c) => c.method === 'POST')).toEqual([]);
    await act(async () => fireEvent.click(within(group).getByRole('button', { name: 'It was not submitted' })));
    expect(confirm).toHaveBeenCalledTimes(2);
    expect(fetchCalls().find((c) => c.method === 'POST')).toMatchObject({ body: { submitted: false } });
    expect((await within(group).findByRole('alert')).textContent).toContain('application_not_awaiting_verification');
    confirm.mockRestore();
  });
});
