import '../../testing/jsdom-polyfills';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { MemoryRouter, Route as RouterRoute, Routes } from 'react-router';
import { SettingsPage } from '../../pages/settings.page';
import { answer, fetchCalls, fieldErrorOf, installFetch, type Route } from '../../testing/fake-fetch';
import { fromText, settingsPatch } from './settings-form';
import { GENERAL_FIELDS, MODEL_FIELDS } from './settings-fields';

afterEach(cleanup);

const doc = {
  pipeline_internal_concurrency: 4,
  tailor_score_threshold: 60,
  preparation_recovery_idle_minutes: 30,
  availability_recheck_hours: 24,
  availability_sweeps_enabled: true,
  apply_daily_cap: 10,
  worker_activity_slots: 8,
  worker_heartbeat_interval_seconds: 5,
  worker_heartbeat_stale_seconds: 30,
  file_source_max_bytes: 104_857_600,
  daily_spend_ceiling_usd: 1,
  host_min_spacing_ms: 500,
  host_max_in_flight: 2,
  allowed_private_hosts: [],
  llm: { provider: 'extractive', model: null, base_url: null, api_key_env: null, prices: {}, timeout_seconds: 60 },
};

/** An API that requires a token: its callers may change every key. */
const ownerGuards = { file_only_writable: true, reason: null, file_only: [{ key: 'allowed_private_hosts', why: 'lets the crawler reach private addresses' }] };
/** An API without a token: the file-only keys are read-only. */
const localGuards = {
  file_only_writable: false,
  reason: 'These settings can be changed through the API only when the API requires a token (api_token_env).',
  file_only: [
    { key: 'llm.base_url', why: 'decides where model requests are sent' },
    { key: 'llm.api_key_env', why: 'names the environment variable whose secret is sent to the model server' },
    { key: 'allowed_private_hosts', why: 'lets the crawler reach private addresses' },
  ],
};

function renderAt(path: string, routes: Route[]) {
  // First match wins: a test's own route overrides the default answer.
  installFetch([...routes, ['GET /v1/settings', () => answer(200, doc)], ['GET /v1/settings/guards', () => answer(200, ownerGuards)]]);
  render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>
        <RouterRoute path="settings/*" element={<SettingsPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

const save = async (form: HTMLElement) => {
  await act(async () => {
    fireEvent.click(within(form).getByRole('button', { name: 'Save' }));
  });
};

describe('settingsPatch', () => {
  it('sends only the changed fields, nested keys nested, numbers as numbers and non-numbers as typed', () => {
    const texts = { pipeline_internal_concurrency: '6', tailor_score_threshold: '60', preparation_recovery_idle_minutes: 'soon', availability_recheck_hours: '24', apply_daily_cap: '10' };
    expect(settingsPatch(GENERAL_FIELDS, doc, texts, { availability_sweeps_enabled: false })).toEqual({
      pipeline_internal_concurrency: 6,
      preparation_recovery_idle_minutes: 'soon',
      availability_sweeps_enabled: false,
    });
    const modelTexts = { 'llm.provider': 'openai', 'llm.model': 'gpt', 'llm.base_url': '', 'llm.api_key_env': '', 'llm.prices': '{}', daily_spend_ceiling_usd: '1' };
    expect(settingsPatch(MODEL_FIELDS, doc, modelTexts, {})).toEqual({ llm: { provider: 'openai', model: 'gpt' } });
    expect(fromText('nullable-text', '  ')).toBeNull();
    expect(fromText('json', '{oops')).toBe('{oops');
  });
});

describe('Settings page', () => {
  it('shows a 400 next to each field it names, and keeps the values typed', async () => {
    renderAt('/settings/general', [
      [
        'PATCH /v1/settings',
        () =>
          answer(400, {
            statusCode: 400,
            message: 'invalid settings',
            errors: [
              { field: 'pipeline_internal_concurrency', value: 0, rule: 'must be at least 1' },
              { field: 'tailor_score_threshold', value: 101, rule: 'must be at most 100' },
            ],
          }),
      ],
    ]);
    const form = await screen.findByRole('form', { name: 'General' });
    const concurrency = within(form).getByLabelText('Pipeline internal concurrency');
    expect(concurrency).toHaveProperty('value', '4');
    fireEvent.change(concurrency, { target: { value: '0' } });
    fireEvent.change(within(form).getByLabelText('Tailor score threshold'), { target: { value: '101' } });
    await save(form);
    expect(fetchCalls().find((c) => c.method === 'PATCH')?.body).toEqual({ pipeline_internal_concurrency: 0, tailor_score_threshold: 101 });
    expect(fieldErrorOf(concurrency)).toBe('must be at least 1');
    expect(concurrency.getAttribute('aria-invalid')).toBe('true');
    expect(fieldErrorOf(within(form).getByLabelText('Tailor score threshold'))).toBe('must be at most 100');
    expect(fieldErrorOf(within(form).getByLabelText('Apply daily cap'))).toBe('');
    expect(concurrency).toHaveProperty('value', '0');
    // Every error has its field: no banner repeats them.
    expect(within(form).queryByRole('alert', { name: /invalid settings/ })).toBeNull();
  });

  it('places a nested key error (llm.model) beside its field, and an error for a key the tab does not show in a banner', async () => {
    renderAt('/settings/models', [
      [
        'PATCH /v1/settings',
        () =>
          answer(400, {
            statusCode: 400,
            message: 'invalid settings',
            errors: [
              { field: 'llm.model', value: null, rule: 'is required by the openai provider' },
              { field: 'worker_slots', value: 3, rule: 'is not a setting' },
            ],
          }),
      ],
    ]);
    const form = await screen.findByRole('form', { name: 'Models & spend' });
    fireEvent.change(within(form).getByLabelText('Provider'), { target: { value: 'openai' } });
    await save(form);
    expect(fetchCalls().find((c) => c.method === 'PATCH')?.body).toEqual({ llm: { provider: 'openai' } });
    expect(fieldErrorOf(within(form).getByLabelText('Model'))).toBe('is required by the openai provider');
    expect(within(form).getByText('invalid settings')).toBeTruthy();
  });

  it('links every tab to its own address from any tab (no relative path piling up under the splat route)', async () => {
    renderAt('/settings/general', []);
    await screen.findByRole('form', { name: 'General' });
    const tabs = within(screen.getByRole('navigation', { name: 'Settings sections' })).getAllByRole('link');
    expect(tabs.map((a) => a.getAttribute('href'))).toEqual(['/settings/general', '/settings/worker', '/settings/models', '/settings/discovery', '/settings/host']);
    expect(tabs[0].getAttribute('aria-current')).toBe('page');
  });

  it('says which saved keys need a restart', async () => {
    renderAt('/settings/worker', [['PATCH /v1/settings', () => answer(200, { ...doc, worker_activity_slots: 12, changed_keys: ['worker_activity_slots'], restart_required: ['worker_activity_slots'] })]]);
    const form = await screen.findByRole('form', { name: 'Worker' });
    fireEvent.change(within(form).getByLabelText('Worker activity slots'), { target: { value: '12' } });
    await save(form);
    expect(within(form).getByRole('status').textContent).toMatch(/Restart required for: worker_activity_slots/);
  });

  it('edits the discovery runtime through its own route and maps its 400', async () => {
    renderAt('/settings/discovery', [
      ['GET /v1/discovery/runtime', () => answer(200, { max_parallel_families: 1, updated_at: '2026-01-01T00:00:00Z' })],
      ['PATCH /v1/discovery/runtime', () => answer(400, { statusCode: 400, message: 'bad', errors: [{ field: 'max_parallel_families', value: 0, rule: 'must not be less than 1' }] })],
    ]);
    const form = await screen.findByRole('form', { name: 'Discovery runtime' });
    const input = within(form).getByLabelText('Max parallel families');
    fireEvent.change(input, { target: { value: '0' } });
    await save(form);
    expect(fetchCalls().find((c) => c.method === 'PATCH')).toMatchObject({ path: '/v1/discovery/runtime', body: { max_parallel_families: 0 } });
    expect(fieldErrorOf(input)).toBe('must not be less than 1');
  });

  it('edits the allowed private hosts as a list and shows the API rule beside it', async () => {
    const rule = 'must be an array of host names or IP literals (no scheme, port or path)';
    renderAt('/settings/host', [
      ['PATCH /v1/settings', () => answer(400, { statusCode: 400, message: 'invalid settings', errors: [{ field: 'allowed_private_hosts', value: ['http://x'], rule }] })],
    ]);
    const form = await screen.findByRole('form', { name: 'Host policy' });
    const input = within(form).getByLabelText('Allowed private hosts');
    expect(input).toHaveProperty('value', '[]');
    fireEvent.change(input, { target: { value: '["http://x"]' } });
    await save(form);
    expect(fetchCalls().find((c) => c.method === 'PATCH')).toMatchObject({ path: '/v1/settings', body: { allowed_private_hosts: ['http://x'] } });
    expect(fieldErrorOf(input)).toBe(rule);
  });

  it('shows the error state when the settings cannot be read', async () => {
    renderAt('/settings/general', [['GET /v1/settings', () => answer(500, { statusCode: 500, message: 'disk on fire' })]]);
    expect((await screen.findByRole('alert')).textContent).toMatch(/disk on fire/);
  });

  it('shows the file-only settings read-only with why while the API requires no token, and never sends them', async () => {
    renderAt('/settings/models', [
      ['GET /v1/settings/guards', () => answer(200, localGuards)],
      ['PATCH /v1/settings', () => answer(200, { ...doc, daily_spend_ceiling_usd: 2, changed_keys: ['daily_spend_ceiling_usd'], restart_required: [] })],
    ]);
    const form = await screen.findByRole('form', { name: 'Models & spend' });
    const baseUrl = within(form).getByLabelText('Base URL');
    expect(baseUrl).toHaveProperty('readOnly', true);
    const hint = document.getElementById(baseUrl.getAttribute('aria-describedby') ?? '');
    expect(hint?.textContent).toMatch(/Read-only here: it decides where model requests are sent\. These settings can be changed through the API only when the API requires a token/);
    expect(within(form).getByLabelText('API key environment variable')).toHaveProperty('readOnly', true);
    expect(within(form).getByLabelText('Model')).toHaveProperty('readOnly', false);
    // A read-only field that somehow changed is still not sent: only the editable change goes out.
    fireEvent.change(baseUrl, { target: { value: 'http://127.0.0.1:9/v1' } });
    fireEvent.change(within(form).getByLabelText('Daily spend ceiling (USD)'), { target: { value: '2' } });
    await save(form);
    expect(fetchCalls().find((c) => c.method === 'PATCH')?.body).toEqual({ daily_spend_ceiling_usd: 2 });
  });

  it('lets the owner edit them when the API requires a token', async () => {
    renderAt('/settings/host', []);
    const form = await screen.findByRole('form', { name: 'Host policy' });
    expect(within(form).getByLabelText('Allowed private hosts')).toHaveProperty('readOnly', false);
  });
});
