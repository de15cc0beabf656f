// The web UI end to end, in Debian's Chromium against a real stack (npm start: Temporal dev server,
// worker, API serving the built UI) crawling the board simulator. Each test saves a screenshot of
// every page it visits under test-artifacts/web-e2e/ (git-ignored).
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { startBoardSimulator, type BoardSimulator } from '@jobctrl/tools/fixtures';
import { waitFor } from '@jobctrl/tools/processes';
import { disposeStack, startThrowawayStack, type ThrowawayStack } from '@jobctrl/tools/stack/testing';
import type { Page } from 'playwright-core';
import { launchBrowser, screenshots, type TestBrowser } from './support/browser';

interface RunView {
  state: string;
  progress: { completed: number; total: number };
}
interface JobItem {
  jobKey: string;
  title: string;
  stage: string;
}

let sim: BoardSimulator;
let stack: ThrowawayStack;
let browser: TestBrowser;
let page: Page;
/** Uncaught errors of the page: a test that saw one fails (a blank page is not a pass). */
let pageErrors: string[] = [];

beforeAll(async () => {
  sim = await startBoardSimulator({ seed: 11, jobsPerBoard: 4, families: [{ kind: 'greenhouse', token: 'acme' }, { kind: 'lever', token: 'globex' }] });
  // Every scored job goes on to tailoring and a letter, so the run prepares some whatever they score.
  // A real stack started as a user starts it (npm start: its own dev server, the compiled parts, the built UI at /).
  stack = await startThrowawayStack('jobctrl-web-e2e-', { tailor_score_threshold: 0 });
  browser = await launchBrowser();
});

afterAll(async () => {
  // Each part is stopped even when another's stop fails; the browser proves its processes gone.
  const results = await Promise.allSettled([browser?.close(), disposeStack(stack), sim?.stop()]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length > 0) throw failed[0].reason;
});

beforeEach(async () => {
  page = await browser.browser.newPage({ viewport: { width: 1200, height: 800 } });
  pageErrors = [];
  page.on('pageerror', (err) => pageErrors.push(err.message));
});

afterEach(async () => {
  await page?.close();
  expect(pageErrors).toEqual([]);
});

const open = (path: string) => page.goto(`${stack.url}${path}`);

/** Waits for the run to finish; the wait lasts while its progress moves. */
function runFinished(runId: string): Promise<RunView> {
  return waitFor(
    async () => {
      const run = await stack.json<RunView & { preparation: unknown }>(`/v1/pipeline/runs/${runId}`);
      return ['completed', 'failed', 'cancelled'].includes(run.state) ? { done: run } : { progress: [run.state, run.progress, run.preparation] };
    },
    { what: `run ${runId}`, idleTimeoutMs: 120_000, intervalMs: 500 },
  );
}

it('Sources: the form each kind gets from GET /v1/sources/kinds — a 400 beside its field (a sub-form item\'s too), then a board added, disabled and enabled', async () => {
  const shoot = screenshots('sources');
  await open('/sources');
  await page.getByText(/No sources yet/).waitFor();
  await page.getByRole('button', { name: 'Add source' }).click();
  const form = page.getByRole('form', { name: 'New source' });

  // A kind with a list of sub-forms: the API's error on units[0].board sits beside that item's board.
  await form.getByLabel('Kind').selectOption('jobstreaming');
  await form.getByLabel('Name', { exact: true }).fill('searches');
  const unit = form.getByRole('group', { name: 'Units 1', exact: true });
  await unit.getByLabel('Query (required)').fill('typescript');
  await unit.getByLabel('Board (required)').selectOption('aggregator');
  await form.getByRole('button', { name: 'Add source' }).click();
  const board = unit.getByLabel('Board (required)');
  await expectAttribute(board, 'aria-invalid', 'true');
  expect(await fieldError(board)).toContain('needs base_url or base_urls.aggregator');
  await shoot(page, 'sources-form', { docs: true });
  await form.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Add source' }).click();
  await form.getByLabel('Kind').selectOption('greenhouse');
  await form.getByLabel('Name', { exact: true }).fill('acme');
  await form.getByLabel('Board token (required)').fill('acme');
  // The field shows the adapter's default (the public API) until it is changed.
  const baseUrl = form.getByLabel('Base URL');
  expect(await baseUrl.inputValue()).toMatch(/^https:\/\/.*greenhouse/);
  await baseUrl.fill('ftp://not-a-board');
  await form.getByRole('button', { name: 'Add source' }).click();

  // The API's own rule, beside the field it names.
  await expectAttribute(baseUrl, 'aria-invalid', 'true');
  expect(await fieldError(baseUrl)).toContain('must be an absolute http(s) URL');
  await shoot(page, 'sources-error');

  await baseUrl.fill(sim.url);
  await form.getByRole('button', { name: 'Add source' }).click();
  await page.getByText('acme saved.').waitFor();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'acme' }) });
  const enabled = row.getByRole('checkbox', { name: 'acme enabled' });
  expect(await enabled.isChecked()).toBe(true);
  await enabled.click();
  await page.getByText('acme disabled.').waitFor();
  expect((await stack.json<Array<{ name: string; enabled: boolean }>>('/v1/sources')).find((s) => s.name === 'acme')?.enabled).toBe(false);
  await row.getByRole('checkbox', { name: 'acme enabled' }).click();
  await page.getByText('acme enabled.').waitFor();
  const sources = await stack.json<Array<{ name: string }>>('/v1/sources');
  expect(sources).toContainEqual(expect.objectContaining({ kind: 'greenhouse', name: 'acme', enabled: true, config: { board_token: 'acme', base_url: sim.url } }));
  expect(sources.map((s) => s.name)).not.toContain('searches');
  await shoot(page, 'sources', { docs: true });
});

it('Profile: a bad email is named next to its field; a save names the batch it started', async () => {
  const shoot = screenshots('profile');
  await stack.json('/v1/profile', { method: 'PUT', body: sampleProfile() });
  await open('/profile');
  const email = page.getByLabel('Email');
  expect(await email.inputValue()).toBe(sampleProfile().contact.email);
  await shoot(page, 'profile', { docs: true });

  await email.fill('not an email');
  await page.getByRole('button', { name: 'Save profile' }).click();
  await expectAttribute(email, 'aria-invalid', 'true');
  expect(await fieldError(email)).toBe('must be an email address');
  await shoot(page, 'profile-error');

  await email.fill('dana@example.org');
  await page.getByRole('button', { name: 'Add role' }).click();
  const n = sampleProfile().experience.length + 1;
  await page.getByRole('group', { name: `Role ${n}`, exact: true }).getByLabel('Title').fill('Volunteer maintainer');
  const role = page.getByRole('group', { name: `Role ${n}: Volunteer maintainer` });
  await role.getByLabel('Employer').fill('Open source');
  await role.getByLabel('Start').fill('2019');
  await page.getByRole('button', { name: 'Save profile' }).click();
  const notice = page.getByRole('status').filter({ hasText: 'Saved revision' });
  await notice.waitFor();
  const runId = /Preparation batch (\S+) started/.exec((await notice.textContent()) ?? '')?.[1];
  expect(runId).toBeDefined();
  // The batch is a real run of the API, and the profile holds what was typed.
  expect(await stack.json(`/v1/pipeline/runs/${runId}`)).toMatchObject({ runId });
  expect(await stack.json('/v1/profile')).toMatchObject({ contact: { email: 'dana@example.org' }, experience: expect.arrayContaining([expect.objectContaining({ title: 'Volunteer maintainer', start: '2019' })]) });
  await shoot(page, 'profile-saved');
  await runFinished(runId as string);
});

it('Jobs: prepared jobs arrive on the open list live; a prepared job shows its letter and both reviews, and re-prepares', async () => {
  const shoot = screenshots('jobs');
  await ensureSource();
  // Letters are written from the profile's facts: without one every letter fails its factual review.
  await stack.json('/v1/profile', { method: 'PUT', body: sampleProfile() });
  // The list of prepared jobs is open (and on the live stream) before the run that prepares them.
  const preparedBefore = (await stack.json<{ total: number }>('/v1/jobs?stage=prepared&limit=1')).total;
  await open('/jobs?stage=prepared');
  await page.getByText('Live', { exact: true }).waitFor();
  if (preparedBefore === 0) await page.getByText(/No job matches these filters/).waitFor();
  const { runId } = await stack.json<{ runId: string }>('/v1/pipeline/runs', { method: 'POST', body: { stages: ['discover', 'score', 'tailor', 'cover'] } });
  const finished = await runFinished(runId);
  expect(finished).toMatchObject({ state: 'completed' });
  const prepared = await stack.json<{ items: JobItem[] }>('/v1/jobs?stage=prepared&limit=1');
  // A run that prepared nothing says why: the stages its jobs reached, and the run itself.
  if (prepared.items.length !== 1) {
    const all = await stack.json<{ items: Array<JobItem & { prepStatus: string }> }>('/v1/jobs?limit=100');
    throw new Error(`no prepared job; jobs: ${JSON.stringify(all.items.map((j) => [j.stage, j.prepStatus]))}; run: ${JSON.stringify(finished)}`);
  }
  const job = prepared.items[0];
  // No reload: the rows came through the job events (or the poll while the stream was down).
  await page.getByRole('link', { name: job.title }).first().waitFor({ timeout: 30_000 });
  await shoot(page, 'jobs-live');
  const detail = await stack.json<{ coverLetter: { text?: string } | string }>(`/v1/jobs/${encodeURIComponent(job.jobKey)}`);
  const letter = typeof detail.coverLetter === 'string' ? detail.coverLetter : (detail.coverLetter.text ?? '');
  expect(letter.length).toBeGreaterThan(50);

  await open('/jobs');
  await page.getByRole('link', { name: job.title }).first().waitFor();
  await shoot(page, 'jobs', { docs: true });
  await open(`/jobs/${encodeURIComponent(job.jobKey)}`);
  const section = page.getByRole('region', { name: 'Cover letter' });
  // The letter as the API stored it (whitespace aside), and one row per review, both passed.
  await section.getByText(letter.slice(0, 40).trim(), { exact: false }).first().waitFor();
  const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
  expect(squash((await section.textContent()) ?? '')).toContain(squash(letter).slice(0, 200));
  const reviews = section.getByRole('table').getByRole('row');
  await expectRows(reviews, [/^factual\s*passed/, /^quality\s*passed/]);
  await section.scrollIntoViewIfNeeded();
  await shoot(page, 'job-detail', { docs: true });
  // Re-prepare: on for this job (the API's flag, the worker ready); a click names the workflow it
  // started, and the job is prepared again (a newer preparedAt) before the next test.
  const before = (await stack.json<{ preparedAt: string }>(`/v1/jobs/${encodeURIComponent(job.jobKey)}`)).preparedAt;
  const actions = page.getByRole('region', { name: 'Actions' });
  const reprepare = actions.getByRole('button', { name: 'Re-prepare' });
  await waitFor(async () => ((await reprepare.isEnabled()) ? { done: true } : { progress: null }), { what: 'Re-prepare to be on', idleTimeoutMs: 15_000, intervalMs: 100 });
  await reprepare.click();
  const notice = actions.getByRole('status').filter({ hasText: 'Preparation started' });
  await notice.waitFor();
  expect(/Preparation started \((\S+)\)/.exec((await notice.textContent()) ?? '')?.[1]).toMatch(/^prep-/);
  await shoot(page, 'job-actions', { docs: true });
  await waitFor(
    async () => {
      const j = await stack.json<{ stage: string; preparedAt: string | null }>(`/v1/jobs/${encodeURIComponent(job.jobKey)}`);
      return j.stage === 'prepared' && j.preparedAt !== before ? { done: true } : { progress: [j.stage, j.preparedAt] };
    },
    { what: `${job.jobKey} prepared again`, idleTimeoutMs: 120_000, intervalMs: 500 },
  );

});

/** The simulator's boards as sources (the Sources test adds acme through the UI; no test depends on another). */
async function ensureSource(): Promise<void> {
  const sources = await stack.json<Array<{ name: string }>>('/v1/sources');
  const wanted = [
    { kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim.url } },
    { kind: 'lever', name: 'globex', config: { site: 'globex', base_url: sim.url } },
  ];
  for (const body of wanted.filter((w) => !sources.some((s) => s.name === w.name))) await stack.json('/v1/sources', { method: 'POST', body });
}

interface BarSample {
  value: number;
  width: number;
}

it('Pipelines: a run started on the page fills its Runs bar to 100 % and the bar never goes back', async () => {
  const shoot = screenshots('pipelines-run');
  await ensureSource();
  const before = new Set((await stack.json<{ items: Array<{ runId: string }> }>('/v1/pipeline/runs?limit=100')).items.map((r) => r.runId));
  // Each board answer takes a while, so the run lasts long enough for the bar to be seen moving.
  sim.setKnobs({ latencyMs: 400 });
  try {
    await open('/pipelines');
    const form = page.getByRole('form', { name: 'Start a run' });
    for (const stage of ['discover', 'score', 'tailor', 'cover']) await form.getByRole('checkbox', { name: stage, exact: true }).setChecked(stage === 'discover' || stage === 'score');
    await form.getByRole('button', { name: 'Start run' }).click();
    const runId = await waitFor(
      async () => {
        const fresh = (await stack.json<{ items: Array<{ runId: string }> }>('/v1/pipeline/runs?limit=5')).items.find((r) => !before.has(r.runId));
        return fresh ? { done: fresh.runId } : { progress: null };
      },
      { what: 'the run started from the page', idleTimeoutMs: 30_000, intervalMs: 100 },
    );
    const bar = page.getByRole('progressbar', { name: `Progress of run ${runId.slice(0, 8)}` });
    await bar.waitFor();
    await shoot(page, 'pipelines', { docs: true });

    // The bar as a person sees it, every 100 ms: its value and the fill's drawn width.
    const samples: BarSample[] = [];
    const fill = bar.locator('.runs-bar-fill');
    await waitFor(
      async () => {
        const value = Number(await bar.getAttribute('aria-valuenow'));
        const width = (await fill.boundingBox())?.width ?? 0;
        samples.push({ value, width });
        return value === 100 ? { done: true } : { progress: value };
      },
      { what: `the Runs bar of ${runId} to reach 100 %`, idleTimeoutMs: 120_000, intervalMs: 100 },
    );
    const finished = await runFinished(runId);
    expect(finished).toMatchObject({ state: 'completed' });
    // Never backwards, in value or in pixels (a fraction of a pixel is rounding, not movement).
    for (let i = 1; i < samples.length; i++) {
      expect(samples[i].value).toBeGreaterThanOrEqual(samples[i - 1].value);
      expect(samples[i].width).toBeGreaterThanOrEqual(samples[i - 1].width - 0.5);
    }
    expect(samples[samples.length - 1].value).toBe(100);
    // It was watched on its way (a bar first seen full proves nothing about going back).
    expect(samples[0].value).toBeLessThan(100);
    await shoot(page, 'pipelines-done');
  } finally {
    sim.setKnobs({ latencyMs: null });
  }
});

it('Internal concurrency set on Pipelines is the value under Settings → General and in GET /v1/settings', async () => {
  const shoot = screenshots('internal-concurrency');
  const current = (await stack.json<{ pipeline_internal_concurrency: number }>('/v1/settings')).pipeline_internal_concurrency;
  const next = current === 5 ? 3 : 5;
  await open('/pipelines');
  const form = page.getByRole('form', { name: 'Internal concurrency' });
  const field = form.getByLabel(/internal concurrency/i);
  expect(await field.inputValue()).toBe(String(current));
  await field.fill(String(next));
  await form.getByRole('button', { name: 'Save' }).click();
  await form.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await shoot(page, 'pipelines-concurrency');
  expect((await stack.json<{ pipeline_internal_concurrency: number }>('/v1/settings')).pipeline_internal_concurrency).toBe(next);

  // Through the navigation, as a person goes there.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'General', exact: true }).click();
  const general = page.getByLabel('Pipeline internal concurrency');
  await waitFor(async () => ((await general.inputValue()) === String(next) ? { done: true } : { progress: await general.inputValue() }), { what: 'the General tab value', idleTimeoutMs: 15_000, intervalMs: 100 });
  await shoot(page, 'settings', { docs: true });
});

it('Settings: a bad value is named next to its field and nothing is saved', async () => {
  const shoot = screenshots('settings-error');
  const before = await stack.json<{ tailor_score_threshold: number }>('/v1/settings');
  await open('/settings/general');
  const threshold = page.getByLabel('Tailor score threshold');
  await threshold.fill('150');
  await page.getByRole('button', { name: 'Save' }).click();
  await expectAttribute(threshold, 'aria-invalid', 'true');
  expect(await fieldError(threshold)).toContain('must be an integer from 0 to 100');
  await shoot(page, 'settings-error');
  expect((await stack.json<{ tailor_score_threshold: number }>('/v1/settings')).tailor_score_threshold).toBe(before.tailor_score_threshold);

  // The other pages of the app, for the record (and the README's pictures).
  await open('/operations');
  await page.getByRole('heading', { name: 'Operations', level: 1 }).waitFor();
  await waitFor(async () => ((await page.getByText(/^Loading/).count()) === 0 ? { done: true } : { progress: null }), { what: 'the Operations page to load', idleTimeoutMs: 30_000, intervalMs: 200 });
  await shoot(page, 'operations', { docs: true });
});

/** The text of the field error a control names first in aria-describedby. */
async function fieldError(control: ReturnType<Page['locator']>): Promise<string> {
  const errorId = ((await control.getAttribute('aria-describedby')) ?? '').split(' ')[0];
  return (await page.locator(`#${errorId}`).textContent()) ?? '';
}

async function expectAttribute(locator: ReturnType<Page['locator']>, name: string, value: string): Promise<void> {
  await waitFor(async () => ((await locator.getAttribute(name)) === value ? { done: true } : { progress: null }), { what: `${name}=${value}`, idleTimeoutMs: 15_000, intervalMs: 100 });
}

/** The table's body rows, read as text, match `patterns` in order (the header row left out). */
async function expectRows(rows: ReturnType<Page['locator']>, patterns: RegExp[]): Promise<void> {
  const texts = (await rows.allTextContents()).slice(1).map((t) => t.trim());
  expect(texts.length).toBe(patterns.length);
  patterns.forEach((p, i) => expect(texts[i]).toMatch(p));
}
