import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import type { HttpClient } from '@jobctrl/shared/http';
import { RobotsBlockedError } from '@jobctrl/shared/http';
import { DiscoveryRunRepository, JobRepository, ObservedPosting } from '@jobctrl/shared/jobs';
import { CpuTaskPool } from '@jobctrl/shared/temporal';
import { createEnrichmentActivities } from './discovery-enrichment.activities';

const PAGE = (title: string) =>
  `<html><head><script type="application/ld+json">{"@type":"JobPosting","title":"${title}","description":"<p>Build the platform.</p>"}</script></head><body></body></html>`;

/** A scripted HttpClient: per URL, a page or an error; counts calls. */
class ScriptedHttp implements HttpClient {
  readonly calls = new Map<string, number>();
  constructor(private readonly script: Record<string, string | Error>) {}
  async getJson<T>(): Promise<T> {
    throw new Error('not used');
  }
  async getText(url: string): Promise<string> {
    this.calls.set(url, (this.calls.get(url) ?? 0) + 1);
    const answer = this.script[url];
    if (answer === undefined) throw new Error(`unexpected request ${url}`);
    if (answer instanceof Error) throw answer;
    return answer;
  }
}

function retryable503(url: string): Error {
  return Object.assign(new Error(`503 from ${url}`), { code: 'http_status', retryable: true });
}

let dir: string;
let jobs: JobRepository;
let runs: DiscoveryRunRepository;
let cpu: CpuTaskPool;

beforeAll(() => {
  cpu = new CpuTaskPool({ width: 2 });
});
afterAll(() => cpu.close());

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-enrich-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  jobs = new JobRepository(uow);
  runs = new DiscoveryRunRepository(uow);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function posting(key: string): ObservedPosting {
  return {
    jobKey: key, idempotencyKey: `v1-${key}`, contentKey: `c_${key}`, canonicalUrl: `https://b.test/${key}`, sourceId: 's', sourceKind: 'greenhouse',
    externalId: key, title: key, company: 'Acme', location: null, remote: null, url: `https://b.test/${key}`, applyUrl: null,
    descriptionHtml: null, descriptionText: null, postedAt: null, salaryText: null, employmentType: null, tags: [],
  };
}

describe('discoveryEnrichment', () => {
  it('terminal: enriches pending jobs from JSON-LD and hands each to its preparation once', async () => {
    await jobs.recordObservations('r1', 'f', [posting('j_a'), posting('j_b')]);
    const handed: string[] = [];
    const { discoveryEnrichment } = createEnrichmentActivities({
      jobs,
      cpu,
      http: new ScriptedHttp({ 'https://b.test/j_a': PAGE('A'), 'https://b.test/j_b': PAGE('B') }),
      startPreparation: async (j) => void handed.push(j.idempotencyKey),
    });
    const result = await new MockActivityEnvironment().run(discoveryEnrichment, { runId: 'r1', mode: 'terminal' as const, perJobHandoff: true, internalConcurrency: 2 });
    expect(result).toEqual({ enriched: 2, failed: 0, handedOff: 2 });
    expect(handed.sort()).toEqual(['v1-j_a', 'v1-j_b']);
    expect(await jobs.get('j_a')).toMatchObject({ stage: 'pending_score', enrichmentStatus: 'enriched', enrichmentMethod: 'json_ld', descriptionText: 'Build the platform.' });
  });

  it('re-admits robots-blocked rows once per activity lifetime, retryable failures only once their backoff elapsed; non-retryable failures stay out', async () => {
    await jobs.recordObservations('r1', 'f', [posting('j_robots'), posting('j_flaky'), posting('j_dead')]);
    await jobs.recordEnrichment('j_robots', { status: 'robots_blocked' });
    await jobs.recordEnrichment('j_flaky', { status: 'failed_retryable' });
    await jobs.recordEnrichment('j_dead', { status: 'failed' });
    const http = new ScriptedHttp({
      'https://b.test/j_robots': new RobotsBlockedError('https://b.test/j_robots', 'disallowed'),
      'https://b.test/j_flaky': retryable503('https://b.test/j_flaky'),
    });
    const { discoveryEnrichment } = createEnrichmentActivities({ jobs, cpu, http, startPreparation: async () => undefined });
    const input = { runId: 'r1', mode: 'terminal' as const, perJobHandoff: false, internalConcurrency: 2 };
    const before = Date.now();
    await new MockActivityEnvironment().run(discoveryEnrichment, input);
    expect(Object.fromEntries(http.calls)).toEqual({ 'https://b.test/j_robots': 1, 'https://b.test/j_flaky': 1 });
    // A new activity lifetime admits the robots-blocked row once more; the flaky one waits for its backoff.
    await new MockActivityEnvironment().run(discoveryEnrichment, input);
    expect(Object.fromEntries(http.calls)).toEqual({ 'https://b.test/j_robots': 2, 'https://b.test/j_flaky': 1 });
    const flaky = await jobs.get('j_flaky');
    expect(flaky).toMatchObject({ stage: 'pending_enrichment', enrichmentStatus: 'failed_retryable', enrichmentAttempts: 2 });
    // Second attempt failed: the third waits factor × base (4 min by default).
    expect(Date.parse(flaky?.enrichmentNextAttemptAt as string)).toBeGreaterThanOrEqual(before + 4 * 60_000);
  });

  it('after the last bounded attempt a retryable failure moves on to scoring as source_only, with the source’s description', async () => {
    await jobs.recordObservations('r1', 'f', [{ ...posting('j_a'), descriptionText: 'From the board.' }]);
    const http = new ScriptedHttp({ 'https://b.test/j_a': retryable503('https://b.test/j_a') });
    const handed: string[] = [];
    const { discoveryEnrichment } = createEnrichmentActivities({
      jobs, cpu, http, retry: { maxAttempts: 3, baseDelayMs: 0, factor: 1 }, startPreparation: async (j) => void handed.push(j.jobKey),
    });
    const result = await new MockActivityEnvironment().run(discoveryEnrichment, { runId: 'r1', mode: 'terminal' as const, perJobHandoff: true, internalConcurrency: 1 });
    expect(result).toEqual({ enriched: 0, failed: 3, handedOff: 1 });
    expect(http.calls.get('https://b.test/j_a')).toBe(3);
    expect(handed).toEqual(['j_a']);
    expect(await jobs.get('j_a')).toMatchObject({
      stage: 'pending_score',
      enrichmentStatus: 'source_only',
      enrichmentAttempts: 3,
      enrichmentNextAttemptAt: null,
      descriptionText: 'From the board.',
      enrichmentError: expect.stringContaining('after 3 attempts (last: 503 from https://b.test/j_a)'),
    });
  });

  it('a failing lane cancels its sibling lanes and awaits them before the activity fails', async () => {
    await jobs.recordObservations('r1', 'f', [posting('j_slow'), posting('j_bad')]);
    let slowSettled = false;
    const http: HttpClient = {
      getJson: async () => Promise.reject(new Error('not used')),
      getText: async (url, opts) => {
        if (url.endsWith('j_bad')) return PAGE('Bad');
        // Holds until the lane is cancelled (the 10 s cap only keeps a broken build from hanging).
        await new Promise<void>((resolve) => {
          const cap = setTimeout(resolve, 10_000);
          opts?.signal?.addEventListener('abort', () => (clearTimeout(cap), resolve()), { once: true });
        });
        slowSettled = true;
        throw new Error(`aborted ${url}`);
      },
    };
    // The store fails while recording j_bad (say, the disk filled up).
    const failing = Object.create(jobs) as JobRepository;
    failing.recordEnrichment = async (jobKey, outcome) => {
      if (jobKey === 'j_bad') throw new Error('SQLITE_FULL: database or disk is full');
      return jobs.recordEnrichment(jobKey, outcome);
    };
    const { discoveryEnrichment } = createEnrichmentActivities({ jobs: failing, cpu, http, startPreparation: async () => undefined });
    const run = new MockActivityEnvironment().run(discoveryEnrichment, { runId: 'r1', mode: 'terminal' as const, perJobHandoff: false, internalConcurrency: 2 });
    await expect(run).rejects.toThrow('SQLITE_FULL');
    expect(slowSettled).toBe(true);
    // The cancelled sibling wrote nothing after the activity gave up.
    expect(await jobs.get('j_slow')).toMatchObject({ enrichmentStatus: 'pending', enrichmentAttempts: 0 });
  });

  it('a slow page holds only its own lane: the other lane goes on past a whole query batch meanwhile', async () => {
    // internalConcurrency 2 selects 8 jobs per query; j_00's page is released only after j_01..j_09
    // (more than one batch) are enriched, so lanes that waited for a batch to finish would never get there.
    const keys = Array.from({ length: 10 }, (_, i) => `j_${String(i).padStart(2, '0')}`);
    await jobs.recordObservations('r1', 'f', keys.map(posting));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let others = 0;
    const http: HttpClient = {
      getJson: async () => Promise.reject(new Error('not used')),
      getText: async (url) => {
        if (url.endsWith('j_00')) await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 20_000))]);
        return PAGE(url);
      },
    };
    const counting = Object.create(jobs) as JobRepository;
    counting.recordEnrichment = async (jobKey, outcome) => {
      const ready = await jobs.recordEnrichment(jobKey, outcome);
      if (jobKey !== 'j_00' && ++others === keys.length - 1) release();
      return ready;
    };
    const { discoveryEnrichment } = createEnrichmentActivities({ jobs: counting, cpu, http, startPreparation: async () => undefined });
    const started = Date.now();
    const result = await new MockActivityEnvironment().run(discoveryEnrichment, { runId: 'r1', mode: 'terminal' as const, perJobHandoff: false, internalConcurrency: 2 });
    expect(result).toEqual({ enriched: 10, failed: 0, handedOff: 0 });
    // Released by the other lane, not by the 20 s cap.
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a failed per-job handoff is logged and left to the fan-out backstop, not an enrichment failure', async () => {
    await jobs.recordObservations('r1', 'f', [posting('j_a')]);
    const logs: string[] = [];
    const { discoveryEnrichment } = createEnrichmentActivities({
      jobs,
      cpu,
      http: new ScriptedHttp({ 'https://b.test/j_a': PAGE('A') }),
      startPreparation: async () => Promise.reject(new Error('temporal unavailable')),
      log: (m) => logs.push(m),
    });
    const result = await new MockActivityEnvironment().run(discoveryEnrichment, { runId: 'r1', mode: 'terminal' as const, perJobHandoff: true, internalConcurrency: 1 });
    expect(result).toEqual({ enriched: 1, failed: 0, handedOff: 0 });
    expect(logs[0]).toContain('fan-out backstop');
    expect((await jobs.selectPendingPreparation({ runId: 'r1', includePendingTailor: false })).map((j) => j.jobKey)).toEqual(['j_a']);
  });

  it('live: keeps polling for newly committed jobs until cancelled', async () => {
    const http = new ScriptedHttp({ 'https://b.test/j_late': PAGE('Late') });
    const { discoveryEnrichment } = createEnrichmentActivities({ jobs, cpu, http, startPreparation: async () => undefined, pollIntervalMs: 50 });
    const env = new MockActivityEnvironment();
    const live = env.run(discoveryEnrichment, { runId: 'r1', mode: 'live' as const, perJobHandoff: false, internalConcurrency: 1 });
    await new Promise((r) => setTimeout(r, 200));
    await jobs.recordObservations('r1', 'f', [posting('j_late')]);
    for (let i = 0; i < 100 && (await jobs.get('j_late'))?.enrichmentStatus !== 'enriched'; i++) await new Promise((r) => setTimeout(r, 50));
    expect((await jobs.get('j_late'))?.enrichmentStatus).toBe('enriched');
    env.cancel();
    await expect(live).rejects.toThrow();
  });

  it('live with drainAfterFamilies: ends by itself once the run shows its families done and nothing is left, not before', async () => {
    await runs.create('r1', { families: ['a', 'b'] }, 3);
    await jobs.recordObservations('r1', 'a', [posting('j_a')]);
    const http = new ScriptedHttp({ 'https://b.test/j_a': PAGE('A'), 'https://b.test/j_b': PAGE('B') });
    const { discoveryEnrichment } = createEnrichmentActivities({ jobs, runs, cpu, http, startPreparation: async () => undefined, pollIntervalMs: 50 });
    let settled = false;
    const live = new MockActivityEnvironment()
      .run(discoveryEnrichment, { runId: 'r1', mode: 'live' as const, perJobHandoff: false, internalConcurrency: 2, drainAfterFamilies: 2 })
      .finally(() => (settled = true));
    const until = async (what: () => Promise<boolean>) => {
      for (let i = 0; i < 200 && !(await what()); i++) await new Promise((r) => setTimeout(r, 50));
    };
    await until(async () => (await jobs.get('j_a'))?.enrichmentStatus === 'enriched');
    // One family of two done: the consumer keeps polling (and picks up the second family's job).
    await runs.advance('r1', 1);
    await jobs.recordObservations('r1', 'b', [posting('j_b')]);
    await until(async () => (await jobs.get('j_b'))?.enrichmentStatus === 'enriched');
    expect((await jobs.get('j_b'))?.enrichmentStatus).toBe('enriched');
    expect(settled).toBe(false);
    await runs.advance('r1', 2);
    // Without the drain it would poll until cancelled; the 20 s cap only keeps a broken build from hanging.
    let cap: NodeJS.Timeout | undefined;
    const result = await Promise.race([live, new Promise((r) => (cap = setTimeout(() => r('still polling'), 20_000)))]).finally(() => clearTimeout(cap));
    expect(result).toEqual({ enriched: 2, failed: 0, handedOff: 0 });
  });
});
