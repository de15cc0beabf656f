import '../../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { PipelinesPage } from '../../pages/pipelines.page';
import { answer, fetchCalls, fieldErrorOf, installFetch, type Route } from '../../testing/fake-fetch';

afterEach(cleanup);

const run = (id: string, over: Record<string, unknown> = {}) => ({
  runId: `${id}0000000-0000-4000-8000-000000000000`.slice(0, 36),
  workflowId: `pipeline-${id}`,
  stages: ['discover', 'score'],
  state: 'running',
  blockedReason: null,
  progress: { completed: 1, total: 4, detail: { jobsCommitted: 10, jobsEnriched: 5, jobsScored: 2 } },
  preparation: null,
  familiesFailed: [],
  familiesCompleted: [],
  error: null,
  jobsDiscovered: 10,
  createdAt: '2026-12-01T10:00:00.000Z',
  finishedAt: null,
  ...over,
});

function renderPage(routes: Route[]) {
  installFetch([
    ...routes,
    ['GET /v1/sources', () => answer(200, [{ id: 's1', kind: 'greenhouse', name: 'acme', family: 'greenhouse', enabled: true, config: {}, createdAt: '', updatedAt: '' }])],
    ['GET /v1/settings', () => answer(200, { pipeline_internal_concurrency: 4 })],
  ]);
  render(
    <MemoryRouter>
      <PipelinesPage />
    </MemoryRouter>,
  );
}

describe('Pipelines page', () => {
  it('shows the empty state', async () => {
    renderPage([['GET /v1/pipeline/runs', () => answer(200, { items: [], total: 0, limit: 20, offset: 0 })]]);
    expect((await screen.findByText(/No runs yet/)).textContent).toMatch(/start one/);
    // jsdom has no EventSource: the page says it polls instead.
    expect(screen.getByText(/Polling/)).toBeTruthy();
  });

  it('lists runs with their bar and badge; the spend pause links to Models & spend; cancel posts', async () => {
    const paused = run('b', { state: 'spend_ceiling_reached', blockedReason: 'spend_ceiling_reached', createdAt: '2026-12-01T11:00:00.000Z' });
    renderPage([
      ['GET /v1/pipeline/runs', () => answer(200, { items: [paused, run('a')], total: 2, limit: 20, offset: 0 })],
      ['POST /v1/pipeline/runs/a0000000-0000-4000-8000-000000000000/cancel', () => answer(202, run('a', { state: 'cancelled' }))],
    ]);
    const bars = await screen.findAllByRole('progressbar');
    expect(bars.map((b) => b.getAttribute('aria-valuenow'))).toEqual(['25', '25']);
    expect(screen.getByRole('link', { name: 'spend ceiling reached' }).getAttribute('href')).toBe('/settings/models');
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Cancel run a0000000' }));
    });
    expect(fetchCalls().some((c) => c.method === 'POST' && c.path.endsWith('/cancel'))).toBe(true);
    expect(within(screen.getByRole('listitem', { name: 'Run a0000000' })).getByText('cancelled')).toBeTruthy();
  });

  it('starts a run with the ticked stages and sources, and shows a 400 beside the stages', async () => {
    renderPage([
      ['GET /v1/pipeline/runs', () => answer(200, { items: [], total: 0, limit: 20, offset: 0 })],
      ['POST /v1/pipeline/runs', () => answer(400, { statusCode: 400, message: 'bad', errors: [{ field: 'stages', value: ['x'], rule: 'each stage must be one of discover, score' }] })],
    ]);
    const form = await screen.findByRole('form', { name: 'Start a run' });
    fireEvent.click(within(form).getByLabelText('cover'));
    fireEvent.click(await within(form).findByLabelText(/acme/));
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Start run' }));
    });
    expect(fetchCalls().find((c) => c.method === 'POST')?.body).toEqual({ stages: ['discover', 'score', 'tailor'], sourceIds: ['s1'] });
    expect(within(form).getByText(/each stage must be one of/)).toBeTruthy();
  });

  it('edits Internal concurrency through PATCH /v1/settings, with its 400 beside the field', async () => {
    renderPage([
      ['GET /v1/pipeline/runs', () => answer(200, { items: [], total: 0, limit: 20, offset: 0 })],
      ['PATCH /v1/settings', () => answer(400, { statusCode: 400, message: 'bad', errors: [{ field: 'pipeline_internal_concurrency', value: 0, rule: 'must be at least 1' }] })],
    ]);
    const form = await screen.findByRole('form', { name: 'Internal concurrency' });
    const input = within(form).getByLabelText('Pipeline internal concurrency');
    fireEvent.change(input, { target: { value: '0' } });
    await act(async () => {
      fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
    });
    expect(fetchCalls().find((c) => c.method === 'PATCH')?.body).toEqual({ pipeline_internal_concurrency: 0 });
    expect(fieldErrorOf(input)).toBe('must be at least 1');
  });
});
