import '../../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { SourcesPage } from '../../pages/sources.page';
import { buildConfig } from './source-kinds';
import { answer, fetchCalls, fieldErrorOf, installFetch, type Route } from '../../testing/fake-fetch';

afterEach(cleanup);

describe('buildConfig', () => {
  it('leaves blank fields out, parses JSON fields, keeps keys the form does not show', () => {
    expect(buildConfig('greenhouse', { board_token: ' acme ', company_name: '', base_url: '' }, { legacy: 1, company_name: 'Old' })).toEqual({ config: { board_token: 'acme', legacy: 1 }, errors: {} });
    expect(buildConfig('jobstreaming', { units: '[{"query":"ts","board":"remotive"}]', base_urls: '{oops' })).toEqual({
      config: { units: [{ query: 'ts', board: 'remotive' }] },
      errors: { 'config.base_urls': 'is not valid JSON' },
    });
  });
});

const source = { id: '7b0f8d8e-0000-4000-8000-000000000001', kind: 'greenhouse', name: 'acme', family: 'greenhouse', enabled: true, config: { board_token: 'acme' }, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };

function renderPage(routes: Route[]) {
  installFetch(routes);
  render(
    <MemoryRouter>
      <SourcesPage />
    </MemoryRouter>,
  );
}

describe('Sources page', () => {
  it('shows the empty state, then a 400 from the API next to the fields it names', async () => {
    renderPage([
      ['GET /v1/sources', () => answer(200, [])],
      [
        'POST /v1/sources',
        () =>
          answer(400, {
            statusCode: 400,
            message: 'config.board_token: is required',
            errors: [
              { field: 'config.board_token', value: null, rule: "is required and must be a non-empty path segment (no '/', '?', '#', '%' or whitespace)" },
              { field: 'config.base_url', value: 'ftp://x', rule: 'must be an absolute http(s) URL without query, fragment or credentials' },
            ],
          }),
      ],
    ]);
    expect(await screen.findByText(/No sources yet/)).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Add source' }));
    const form = screen.getByRole('form', { name: 'New source' });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'acme' } });
    fireEvent.change(within(form).getByLabelText('Base URL'), { target: { value: 'ftp://x' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add source' })));

    const token = await within(form).findByLabelText('Board token (required)');
    expect(token.getAttribute('aria-invalid')).toBe('true');
    expect(fieldErrorOf(token)).toContain('is required and must be a non-empty path segment');
    const baseUrl = within(form).getByLabelText('Base URL');
    expect(fieldErrorOf(baseUrl)).toContain('absolute http(s) URL');
    // Every error has a place next to a field, so no banner repeats them.
    expect(form.querySelector('.state-error')).toBeNull();
    expect(fetchCalls().find((c) => c.method === 'POST')?.body).toEqual({ kind: 'greenhouse', name: 'acme', enabled: true, config: { base_url: 'ftp://x' } });
  });

  it('lists sources, toggles one with PATCH {enabled}, edits with the kind fixed and unknown config keys kept', async () => {
    let current = { ...source, config: { board_token: 'acme', extra: true } };
    renderPage([
      ['GET /v1/sources', () => answer(200, [current])],
      [
        'PATCH /v1/sources/7b0f8d8e-0000-4000-8000-000000000001',
        (body) => {
          current = { ...current, ...(body as object) };
          return answer(200, current);
        },
      ],
    ]);
    const row = (await screen.findByRole('rowheader', { name: 'acme' })).closest('tr') as HTMLElement;
    await act(async () => fireEvent.click(within(row).getByRole('checkbox', { name: 'acme enabled' })));
    expect(await screen.findByText('acme disabled.')).toBeTruthy();
    expect(fetchCalls().filter((c) => c.method === 'PATCH')[0].body).toEqual({ enabled: false });

    fireEvent.click(screen.getByRole('button', { name: 'Edit acme' }));
    const form = screen.getByRole('form', { name: 'Edit source acme' });
    expect((within(form).getByLabelText('Kind') as HTMLSelectElement).disabled).toBe(true);
    fireEvent.change(within(form).getByLabelText('Company name'), { target: { value: 'Acme Inc' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Save source' })));
    expect(fetchCalls().filter((c) => c.method === 'PATCH')[1].body).toEqual({ name: 'acme', family: 'greenhouse', enabled: false, config: { board_token: 'acme', extra: true, company_name: 'Acme Inc' } });
    expect(await screen.findByText('acme saved.')).toBeTruthy();
  });

  it('an error on a key the form does not show stays visible above the form', async () => {
    renderPage([
      ['GET /v1/sources', () => answer(200, [])],
      ['POST /v1/sources', () => answer(400, { statusCode: 400, message: 'config.serach: is not a known field (known: base_url, search)', errors: [{ field: 'config.serach', value: 'x', rule: 'is not a known field (known: base_url, search)' }] })],
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Add source' }));
    const form = screen.getByRole('form', { name: 'New source' });
    fireEvent.change(within(form).getByLabelText('Kind'), { target: { value: 'remotive' } });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'remote jobs' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add source' })));
    expect((await within(form).findByRole('alert')).textContent).toContain('config.serach: is not a known field');
  });

  it('shows an error state with a retry when the list cannot load', async () => {
    renderPage([['GET /v1/sources', () => answer(500, { statusCode: 500, message: 'database is locked' })]]);
    expect((await screen.findByRole('alert')).textContent).toContain('database is locked');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
