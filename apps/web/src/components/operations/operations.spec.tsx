import '../../testing/jsdom-polyfills';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { OperationsPage } from '../../pages/operations.page';
import { answer, installFetch } from '../../testing/fake-fetch';

afterEach(cleanup);

const unknownQueue = (status: string, reason: string) => ({ status, reason, backlogCount: null, backlogAgeSeconds: null, pollers: null, addRatePerSecond: null, dispatchRatePerSecond: null, observedAt: null, pollerIdentities: [] });
const snapshot = {
  appDir: '/d',
  databasePath: '/d/j.sqlite',
  generatedAt: '2026-12-01T10:00:00Z',
  capacity: { status: 'fresh', reason: '1 fresh worker', configuredSlots: 4, activeSlots: 1, availableSlots: 3, taskQueue: 'jobctrl-default', localControl: { active: 0, configured: 2 }, workers: [{ workerId: 'w1', host: 'box', pid: 42, configuredSlots: 4, activeSlots: 1, executorWidth: 6, localControlActive: 0, ageMs: 900, recordedAt: '2026-12-01T10:00:00Z' }] },
  activeItems: [{ workerId: 'w1', activityType: 'scoreJob', attempt: 1, isLocal: false, runId: 'r', startedAt: '2026-12-01T10:00:00Z', workflowId: 'prep-1', workflowType: 'PrepareJob' }],
  activeItemsTotal: 1,
  taskQueueStats: { taskQueue: 'jobctrl-default', workflow: unknownQueue('unavailable', 'Temporal did not answer'), activity: unknownQueue('stale', 'last read 5 min ago') },
  eta: { status: 'refused', reason: 'no throughput measured yet', remainingWork: null },
  remainingWork: { byStage: {}, total: null },
  throughput: { completed: 0, windowSeconds: 60 },
};
const spend = { day: '2026-12-01', spentUsd: 0.5, ceilingUsd: 1, remainingUsd: 0.5, ceilingReached: false, resetsAt: '2026-12-02T00:00:00Z', byLane: { score: 0.25, tailor: 0.25, cover: 0, review: 0, compensation: 0 }, calls: 3, unknownOutcomeCalls: 0, unknownOutcomeUsd: 0, provider: 'openai', model: 'm' };
const health = { status: 'ok', api: { status: 'up', pid: 1, uptimeSeconds: 5 }, worker: { status: 'ready', reason: '1 worker', freshWorkers: 1, newest: null }, temporal: { status: 'reachable', address: '127.0.0.1:7233', embedded: true, namespace: 'default' } };

describe('Operations page', () => {
  it('shows unknown task-queue numbers as their status (never 0), the ETA refusal, capacity per worker and spend by lane', async () => {
    installFetch([
      ['GET /v1/pipeline/operations', () => answer(200, snapshot)],
      ['GET /v1/spend', () => answer(200, spend)],
      ['GET /v1/health', () => answer(200, health)],
    ]);
    render(
      <MemoryRouter>
        <OperationsPage />
      </MemoryRouter>,
    );
    const workflowRow = (await screen.findByRole('rowheader', { name: 'workflow' })).closest('tr') as HTMLElement;
    const cells = within(workflowRow).getAllByRole('cell').map((c) => c.textContent);
    expect(cells.slice(1)).toEqual(['unavailable', 'unavailable', 'unavailable', 'unavailable', 'unavailable']);
    expect(cells).not.toContain('0');
    const activityRow = screen.getByRole('rowheader', { name: 'activity' }).closest('tr') as HTMLElement;
    expect(within(activityRow).getAllByRole('cell').slice(1).map((c) => c.textContent)).toEqual(['stale', 'stale', 'stale', 'stale', 'stale']);
    expect(screen.getByText(/No estimate: no throughput measured yet/)).toBeTruthy();
    expect(within(screen.getByRole('rowheader', { name: 'box:42' }).closest('tr') as HTMLElement).getAllByRole('cell').map((c) => c.textContent)).toEqual(['4', '1', '3', '1 s']);
    expect((await screen.findByText(/\$0\.50 of \$1\.00 today/)).textContent).toMatch(/3 calls, openai \/ m/);
    expect(screen.getByRole('rowheader', { name: 'score' }).nextElementSibling?.textContent).toBe('$0.25');
    expect(screen.getByText('scoreJob')).toBeTruthy();
    expect(screen.queryByText(/outcome is unknown/)).toBeNull();
  });

  it("says how many of today's calls had an unknown outcome (a worker crashed mid-call) and what they are charged at", async () => {
    installFetch([
      ['GET /v1/pipeline/operations', () => answer(200, snapshot)],
      ['GET /v1/spend', () => answer(200, { ...spend, unknownOutcomeCalls: 2, unknownOutcomeUsd: 0.3 })],
      ['GET /v1/health', () => answer(200, health)],
    ]);
    render(
      <MemoryRouter>
        <OperationsPage />
      </MemoryRouter>,
    );
    expect((await screen.findByText(/outcome is unknown/)).textContent).toBe('Includes 2 calls whose outcome is unknown (worker crashed mid-call), charged at their estimate ($0.30).');
  });

  it('shows the error state when the snapshot cannot be read', async () => {
    installFetch([
      ['GET /v1/pipeline/operations', () => answer(500, { statusCode: 500, message: 'snapshot failed' })],
      ['GET /v1/spend', () => answer(200, spend)],
      ['GET /v1/health', () => answer(200, health)],
    ]);
    render(
      <MemoryRouter>
        <OperationsPage />
      </MemoryRouter>,
    );
    expect((await screen.findByRole('alert')).textContent).toMatch(/snapshot failed/);
  });
});
