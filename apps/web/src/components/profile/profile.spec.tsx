import '../../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { ProfilePage } from '../../pages/profile.page';
import { answer, fetchCalls, fieldErrorOf, installFetch } from '../../testing/fake-fetch';
import { fromDraft, toDraft } from './profile-draft';

afterEach(cleanup);

const stored = {
  contact: { name: 'Ada Lovelace', email: 'ada@example.com', links: ['https://ada.dev'] },
  summary: 'Engineer.',
  skills: ['TypeScript', 'SQL'],
  experience: [{ employer: 'Analytical Engines', title: 'Engineer', start: '2020-01', bullets: ['Built the mill'] }],
  education: [{ school: 'Home', degree: 'BSc' }],
  preferences: { titles: ['Engineer'], locations: ['London'], remote: true },
  revision: 3,
  updatedAt: '2026-01-01T00:00:00Z',
};

describe('profile draft', () => {
  it('round-trips the stored document; blanks are left out, not sent as ""', () => {
    const { revision: _r, updatedAt: _u, ...profile } = stored;
    expect(fromDraft(toDraft(stored))).toEqual({ body: profile, errors: [] });
    const d = toDraft(stored);
    expect(fromDraft({ ...d, minimumSalary: '120 000', salaryCurrency: 'eur', remote: '' }).body.preferences).toEqual({ titles: ['Engineer'], locations: ['London'], minimumSalary: 120000, salaryCurrency: 'EUR' });
    expect(fromDraft({ ...d, minimumSalary: 'lots' }).errors).toEqual([{ field: 'preferences.minimumSalary', value: 'lots', rule: 'must be a whole number' }]);
  });
});

function renderPage() {
  render(
    <MemoryRouter>
      <ProfilePage />
    </MemoryRouter>,
  );
}

describe('Profile page', () => {
  it('adds and removes roles, shows a 400 next to the role field it names, then the batch a save started', async () => {
    let attempt = 0;
    installFetch([
      ['GET /v1/profile', () => answer(200, stored)],
      [
        'PUT /v1/profile',
        (body) =>
          ++attempt === 1
            ? answer(400, { statusCode: 400, message: 'experience.1.start: must be YYYY or YYYY-MM', errors: [{ field: 'experience.1.start', value: 'last year', rule: 'must be YYYY or YYYY-MM' }] })
            : answer(200, { ...(body as object), revision: 4, updatedAt: '2026-01-02T00:00:00Z', batch: { runId: 'run-42', workflowId: 'pipeline-run-42' } }),
      ],
    ]);
    renderPage();
    expect(((await screen.findByLabelText('Name')) as HTMLInputElement).value).toBe('Ada Lovelace');

    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    const role2 = screen.getByRole('group', { name: 'Role 2' });
    fireEvent.change(within(role2).getByLabelText('Title'), { target: { value: 'Lead' } });
    fireEvent.change(within(screen.getByRole('group', { name: 'Role 2: Lead' })).getByLabelText('Start'), { target: { value: 'last year' } });
    fireEvent.click(screen.getByRole('button', { name: 'Remove Role 3' }));
    expect(screen.queryByRole('group', { name: 'Role 3' })).toBeNull();

    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save profile' })));
    const start = within(screen.getByRole('group', { name: 'Role 2: Lead' })).getByLabelText('Start');
    expect(start.getAttribute('aria-invalid')).toBe('true');
    expect(fieldErrorOf(start)).toBe('must be YYYY or YYYY-MM');
    const sent = fetchCalls().find((c) => c.method === 'PUT')?.body as { experience: unknown[] };
    expect(sent.experience).toEqual([stored.experience[0], { employer: '', title: 'Lead', start: 'last year', bullets: [] }]);

    fireEvent.change(start, { target: { value: '2024-05' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save profile' })));
    const notice = await screen.findByText(/Saved revision 4/);
    expect(notice.textContent).toContain('run-42');
    expect(within(notice).getByRole('link', { name: 'Pipelines' }).getAttribute('href')).toBe('/pipelines');
    expect(start.getAttribute('aria-invalid')).toBeNull();
  });

  it('an empty profile says so above the form; a load failure is an error with a retry', async () => {
    installFetch([['GET /v1/profile', () => answer(200, { contact: { name: '', email: '' }, summary: '', skills: [], experience: [], education: [], preferences: { titles: [], locations: [] }, revision: 0, updatedAt: '1970-01-01T00:00:00.000Z' })]]);
    renderPage();
    expect(await screen.findByText(/No profile yet/)).toBeTruthy();
    expect(screen.getByText('No experience yet.')).toBeTruthy();
    cleanup();
    installFetch([['GET /v1/profile', () => answer(500, { statusCode: 500, message: 'SQLITE_BUSY: database is locked' })]]);
    renderPage();
    expect((await screen.findByRole('alert')).textContent).toContain('SQLITE_BUSY');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
