import '../../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { SourcesPage } from '../../pages/sources.page';
import { buildConfig, draftOf, fieldLabel } from './config-draft';
import type { KindField, SourceKindsAnswer } from './source-kind.types';
import { answer, fetchCalls, fieldErrorOf, installFetch, type Route } from '../../testing/fake-fetch';

afterEach(cleanup);

// Kinds as GET /v1/sources/kinds describes them: the form knows nothing else about a kind. The
// jobstreaming kind here is made up to carry one field of every type the API names.
const BASE_URL: KindField = { name: 'base_url', type: 'url', required: false, description: 'a mirror or a simulator', default: 'https://boards-api.greenhouse.io' };
const KINDS: SourceKindsAnswer = {
  kinds: [
    {
      kind: 'greenhouse',
      label: 'Greenhouse',
      description: 'a company board',
      fields: [
        { name: 'board_token', type: 'string', required: true, description: 'one URL path segment' },
        { name: 'company_name', type: 'string', required: false, description: 'how letters address the employer' },
        BASE_URL,
      ],
    },
    {
      kind: 'jobstreaming',
      label: 'JobStreaming',
      description: 'search boards',
      fields: [
        {
          name: 'units',
          type: 'object[]',
          required: true,
          maxItems: 2,
          description: 'one search per item',
          fields: [
            { name: 'query', type: 'string', required: true, description: 'words to search for' },
            { name: 'board', type: 'enum', required: true, description: 'where', options: ['remotive', 'remoteok', 'arbeitnow', 'aggregator'], default: 'remotive' },
          ],
        },
        { name: 'keywords', type: 'string[]', required: false, description: 'kept when they match' },
        { name: 'max_pages', type: 'integer', required: false, description: 'pages per unit', default: 3, min: 1, max: 20 },
        { name: 'remote_only', type: 'boolean', required: false, description: 'only remote postings', default: true },
        { name: 'format', type: 'enum', required: false, description: 'from the extension when not set', options: ['json', 'csv'] },
        {
          name: 'base_urls',
          type: 'object',
          required: false,
          description: 'a base URL per board',
          fields: [
            { name: 'remotive', type: 'url', required: false, description: 'the Remotive API' },
            { name: 'aggregator', type: 'url', required: false, description: 'the search board' },
          ],
        },
      ],
    },
  ],
};
const [GREENHOUSE, SEARCH] = KINDS.kinds;

describe('config draft', () => {
  it('prefills defaults, starts a required list with one item, leaves blanks out and keeps keys no field describes', () => {
    const draft = draftOf(SEARCH.fields, {}, true);
    expect(draft).toMatchObject({ keywords: [], max_pages: '3', remote_only: true, format: '', base_urls: { remotive: '', aggregator: '' } });
    expect(draft.units).toHaveLength(1);
    expect(buildConfig(SEARCH.fields, draft)).toEqual({ config: { units: [{ board: 'remotive' }], max_pages: 3, remote_only: true }, errors: [] });
    expect(buildConfig(GREENHOUSE.fields, draftOf(GREENHOUSE.fields, { board_token: ' acme ', legacy: 1 }), { legacy: 1, company_name: 'Old' }).config).toEqual({
      board_token: 'acme',
      legacy: 1,
      base_url: 'https://boards-api.greenhouse.io',
    });
  });

  it('a number that is not whole is named on the API\'s path before any request', () => {
    const draft = { ...draftOf(SEARCH.fields, { units: [{ query: 'ts' }] }), max_pages: '2.5' };
    expect(buildConfig(SEARCH.fields, draft).errors).toEqual([{ field: 'config.max_pages', value: '2.5', rule: 'must be a whole number' }]);
  });

  it('labels fields from their names', () => {
    expect([fieldLabel('board_token'), fieldLabel('base_urls'), fieldLabel('company_id')]).toEqual(['Board token', 'Base URLs', 'Company ID']);
  });
});

const source = { id: '7b0f8d8e-0000-4000-8000-000000000001', kind: 'greenhouse', name: 'acme', family: 'greenhouse', enabled: true, config: { board_token: 'acme' }, createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z' };

function renderPage(routes: Route[]) {
  installFetch([...routes, ['GET /v1/sources/kinds', () => answer(200, KINDS)]]);
  render(
    <MemoryRouter>
      <SourcesPage />
    </MemoryRouter>,
  );
}

/** POST /v1/sources answered by the API's 400 naming `errors`. */
const refused = (errors: Array<{ field: string; value: unknown; rule: string }>): Route => [
  'POST /v1/sources',
  () => answer(400, { statusCode: 400, message: errors.map((e) => `${e.field}: ${e.rule}`).join('; '), errors }),
];

describe('Sources page', () => {
  it('shows the empty state, then a 400 from the API next to the fields it names', async () => {
    renderPage([
      ['GET /v1/sources', () => answer(200, [])],
      refused([
        { field: 'config.board_token', value: null, rule: "is required and must be a non-empty path segment (no '/', '?', '#', '%' or whitespace)" },
        { field: 'config.base_url', value: 'ftp://x', rule: 'must be an absolute http(s) URL without query, fragment or credentials' },
      ]),
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
    expect(fetchCalls().filter((c) => c.method === 'PATCH')[1].body).toEqual({
      name: 'acme',
      family: 'greenhouse',
      enabled: false,
      // The stored key no field describes is kept; the base URL's default, shown in its field, is sent.
      config: { board_token: 'acme', extra: true, company_name: 'Acme Inc', base_url: 'https://boards-api.greenhouse.io' },
    });
    expect(await screen.findByText('acme saved.')).toBeTruthy();
  });

  it('an error on a key the form does not show stays visible above the form', async () => {
    renderPage([
      ['GET /v1/sources', () => answer(200, [])],
      refused([{ field: 'config.serach', value: 'x', rule: 'is not a known field (known: base_url, search)' }]),
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Add source' }));
    const form = screen.getByRole('form', { name: 'New source' });
    fireEvent.change(within(form).getByLabelText('Kind'), { target: { value: 'jobstreaming' } });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'remote jobs' } });
    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add source' })));
    expect((await within(form).findByRole('alert')).textContent).toContain('config.serach: is not a known field');
  });

  it('builds the form of a kind from its description: a list of sub-forms, a list of texts, number, checkbox, select; errors beside items', async () => {
    renderPage([
      ['GET /v1/sources', () => answer(200, [])],
      refused([
        { field: 'config.units[1].board', value: 'aggregator', rule: 'needs base_url or base_urls.aggregator' },
        { field: 'config.units[0].query', value: '', rule: 'is required and must be a non-empty string' },
        { field: 'config.keywords[0]', value: 'x', rule: 'must be at least 2 characters' },
        { field: 'config.units', value: [], rule: 'must list at most 10 units' },
        { field: 'config.base_urls.aggregator', value: 'x', rule: 'must be an absolute http(s) URL' },
      ]),
    ]);
    fireEvent.click(await screen.findByRole('button', { name: 'Add source' }));
    const form = screen.getByRole('form', { name: 'New source' });
    fireEvent.change(within(form).getByLabelText('Kind'), { target: { value: 'jobstreaming' } });
    fireEvent.change(within(form).getByLabelText('Name'), { target: { value: 'searches' } });
    expect(within(form).getByText('search boards')).toBeTruthy();

    // The required list starts with one item; a second is added and filled.
    const units = within(form).getByRole('group', { name: 'Units (required)' });
    expect(within(units).getAllByRole('group')).toHaveLength(1);
    fireEvent.click(within(units).getByRole('button', { name: 'Add to Units' }));
    // maxItems 2: the list is full.
    expect((within(units).getByRole('button', { name: 'Add to Units' }) as HTMLButtonElement).disabled).toBe(true);
    const second = within(units).getByRole('group', { name: 'Units 2' });
    fireEvent.change(within(second).getByLabelText('Query (required)'), { target: { value: 'typescript' } });
    const board = within(second).getByLabelText('Board (required)') as HTMLSelectElement;
    expect(board.value).toBe('remotive');
    expect([...board.options].map((o) => o.value)).toEqual(['remotive', 'remoteok', 'arbeitnow', 'aggregator']);
    fireEvent.change(board, { target: { value: 'aggregator' } });

    const keywords = within(form).getByRole('group', { name: 'Keywords' });
    fireEvent.click(within(keywords).getByRole('button', { name: 'Add to Keywords' }));
    fireEvent.change(within(keywords).getByLabelText('Keywords 1'), { target: { value: 'x' } });
    const pages = within(form).getByLabelText('Max pages') as HTMLInputElement;
    expect([pages.type, pages.value, pages.min, pages.max]).toEqual(['number', '3', '1', '20']);
    expect(fieldErrorOf(pages)).toBe('');
    const remote = within(form).getByLabelText('Remote only') as HTMLInputElement;
    expect(remote.checked).toBe(true);
    fireEvent.click(remote);
    expect((within(form).getByLabelText('Format') as HTMLSelectElement).value).toBe('');
    const perBoard = within(form).getByRole('group', { name: 'Base URLs' });
    fireEvent.change(within(perBoard).getByLabelText('Aggregator'), { target: { value: 'x' } });

    await act(async () => fireEvent.click(within(form).getByRole('button', { name: 'Add source' })));
    expect(fetchCalls().find((c) => c.method === 'POST')?.body).toEqual({
      kind: 'jobstreaming',
      name: 'searches',
      enabled: true,
      config: { units: [{ board: 'remotive' }, { query: 'typescript', board: 'aggregator' }], keywords: ['x'], max_pages: 3, remote_only: false, base_urls: { aggregator: 'x' } },
    });
    // Each error beside its own control: the second unit's board, the first unit's query, the keyword;
    // the list's own error on the list, not repeated from its items.
    expect(fieldErrorOf(within(second).getByLabelText('Board (required)'))).toBe('needs base_url or base_urls.aggregator');
    const first = within(units).getByRole('group', { name: 'Units 1' });
    expect(fieldErrorOf(within(first).getByLabelText('Query (required)'))).toBe('is required and must be a non-empty string');
    expect(fieldErrorOf(within(first).getByLabelText('Board (required)'))).toBe('');
    expect(fieldErrorOf(within(keywords).getByLabelText('Keywords 1'))).toBe('must be at least 2 characters');
    expect(fieldErrorOf(within(perBoard).getByLabelText('Aggregator'))).toBe('must be an absolute http(s) URL');
    expect(perBoard.getAttribute('aria-invalid')).toBeNull();
    expect(units.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(units.getAttribute('aria-describedby') ?? '')?.textContent).toBe('must list at most 10 units');
    expect(form.querySelector('.state-error')).toBeNull();

    // Removing an item drops it (and the error about it has no place any more: the banner keeps it).
    fireEvent.click(within(units).getByRole('button', { name: 'Remove Units 2' }));
    expect(within(units).queryByRole('group', { name: 'Units 2' })).toBeNull();
    expect(form.querySelector('.state-error')?.textContent).toContain('config.units[1].board');
  });

  it('the form waits for the kinds; a failure to load them is an error with a retry', async () => {
    installFetch([
      ['GET /v1/sources', () => answer(200, [])],
      ['GET /v1/sources/kinds', () => answer(503, { statusCode: 503, message: 'kinds unavailable' })],
    ]);
    render(
      <MemoryRouter>
        <SourcesPage />
      </MemoryRouter>,
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Add source' }));
    expect((await screen.findByRole('alert')).textContent).toContain('kinds unavailable');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'New source' })).toBeNull();
  });

  it('shows an error state with a retry when the list cannot load', async () => {
    renderPage([['GET /v1/sources', () => answer(500, { statusCode: 500, message: 'database is locked' })]]);
    expect((await screen.findByRole('alert')).textContent).toContain('database is locked');
    expect(screen.getByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
