import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { FakeEventSource, installEventSource } from '../testing/fake-event-source';
import { JobsPage, LIVE_REFRESH_MS } from './jobs.page';

type Answer = { status: number; body: unknown };

/** fetch as the page sees it: each call recorded, answered from `answer(url)`. */
function stubFetch(answer: (url: string) => Answer) {
  const calls: string[] = [];
  globalThis.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = String(input);
    calls.push(url);
    const { status, body } = answer(url);
    return { ok: status < 400, status, text: async () => JSON.stringify(body), headers: { get: () => null } } as unknown as Response;
  });
  return calls;
}

const job = {
  jobKey: 'gh:acme:1',
  title: 'Platform Engineer',
  company: 'Acme',
  location: 'Berlin',
  remote: false,
  score: 81,
  stage: 'prepared',
  compensation: { minYearly: 90000, maxYearly: 110000, currency: 'EUR', kind: 'base', min: 90000, max: 110000, interval: 'year', confidence: 1, method: 'parser', field: 'salary', rows: [] },
  availability: { state: 'open', checkedAt: '2026-01-02T00:00:00Z', method: 'http', reason: null, evidence: [] },
  salaryText: null,
  firstSeenAt: '2026-01-01T00:00:00Z',
};

const renderAt = (url: string) =>
  render(
    <MemoryRouter initialEntries={[url]}>
      <Routes>
        <Route path="/jobs" element={<JobsPage />} />
      </Routes>
    </MemoryRouter>,
  );

describe('Jobs page', () => {
  it('loads, then shows the jobs with score, stage, compensation and availability', async () => {
    const calls = stubFetch(() => ({ status: 200, body: { items: [job], total: 1, limit: 25, offset: 0 } }));
    renderAt('/jobs');
    expect(screen.getByRole('status').textContent).toContain('Loading jobs');
    expect((await screen.findByRole('link', { name: 'Platform Engineer' })).getAttribute('href')).toBe('/jobs/gh%3Aacme%3A1');
    expect(screen.getByText('€90K–€110K / year')).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'open' })).toBeTruthy();
    expect(screen.getByText('1–1 of 1 (page 1 of 1)')).toBeTruthy();
    expect(calls).toEqual(['/v1/jobs?limit=25&offset=0&sort=newest']);
  });

  it('the filters in the address bar become the query; submitting new ones refetches from page 1', async () => {
    const calls = stubFetch(() => ({ status: 200, body: { items: [job], total: 60, limit: 25, offset: 25 } }));
    renderAt('/jobs?stage=prepared&page=2');
    await screen.findByRole('link', { name: 'Platform Engineer' });
    expect(calls[0]).toBe('/v1/jobs?limit=25&offset=25&sort=newest&stage=prepared');
    fireEvent.change(screen.getByLabelText('Min score'), { target: { value: '70' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filter' }));
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]).toBe('/v1/jobs?limit=25&offset=0&sort=newest&stage=prepared&minScore=70');
  });

  it('a 400 shows its field errors next to the fields', async () => {
    stubFetch(() => ({ status: 400, body: { statusCode: 400, message: 'company = "x": must be shorter', errors: [{ field: 'company', value: 'x', rule: 'must be shorter' }] } }));
    renderAt('/jobs?company=x');
    const alert = await screen.findByText('must be shorter');
    expect(screen.getByLabelText(/Company/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText(/Company/).getAttribute('aria-describedby')).toBe(alert.id);
  });

  it('empty: says how to get jobs, or offers to clear the filters', async () => {
    stubFetch(() => ({ status: 200, body: { items: [], total: 0, limit: 25, offset: 0 } }));
    const { unmount } = renderAt('/jobs');
    expect(await screen.findByText(/No jobs yet/)).toBeTruthy();
    unmount();
    renderAt('/jobs?q=cobol');
    expect(await screen.findByRole('button', { name: 'Clear the filters' })).toBeTruthy();
  });

  it('the API down: an error with a retry', async () => {
    globalThis.fetch = jest.fn(async () => Promise.reject(new TypeError('Failed to fetch')));
    renderAt('/jobs');
    expect((await screen.findByRole('alert')).textContent).toContain('The API did not answer. Is the API running?');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  describe('live', () => {
    let uninstall: () => void;
    beforeEach(() => (uninstall = installEventSource()));
    afterEach(() => uninstall());

    it('a job event moves its row to the new stage at once, then one quiet re-fetch brings its score', async () => {
      let current = { ...job, stage: 'pending_score', score: null as number | null };
      const calls = stubFetch(() => ({ status: 200, body: { items: [current], total: 1, limit: 25, offset: 0 } }));
      renderAt('/jobs');
      const row = (await screen.findByRole('link', { name: 'Platform Engineer' })).closest('tr') as HTMLElement;
      const stream = FakeEventSource.last as FakeEventSource;
      expect(stream.url).toBe('/v1/events');
      act(() => stream.emit('ready', { pollIntervalMs: 1000 }));
      expect(screen.getByText('Live')).toBeTruthy();

      current = { ...current, stage: 'scored', score: 81 };
      act(() => {
        stream.emit('job', { jobKey: 'gh:acme:1', previousStage: 'pending_score', stage: 'scored' });
        // A burst (another job, the same job again) still makes one request.
        stream.emit('job', { jobKey: 'gh:other:2', previousStage: null, stage: 'pending_enrichment' });
        stream.emit('run', { runId: 'r' });
      });
      expect(within(row).getByText('scored')).toBeTruthy();
      expect(within(row).getByRole('cell', { name: '—' })).toBeTruthy();
      await waitFor(() => expect(within(row).getByRole('cell', { name: '81' })).toBeTruthy(), { timeout: LIVE_REFRESH_MS * 5 });
      expect(calls).toHaveLength(2);
      expect(calls[1]).toBe(calls[0]);
      // The table stayed up during the re-fetch: no Loading line replaced it.
      expect(screen.queryByText(/Loading jobs/)).toBeNull();
    });

    it('the stream breaking: the page says it polls and fetches the page again at once', async () => {
      const calls = stubFetch(() => ({ status: 200, body: { items: [job], total: 1, limit: 25, offset: 0 } }));
      renderAt('/jobs');
      await screen.findByRole('link', { name: 'Platform Engineer' });
      act(() => (FakeEventSource.last as FakeEventSource).fail());
      expect(screen.getByText(/Polling/)).toBeTruthy();
      await waitFor(() => expect(calls).toHaveLength(2));
    });
  });
});
