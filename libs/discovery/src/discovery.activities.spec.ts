import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { HostPolicyHttpClient } from '@jobctrl/shared/http';
import { DiscoveryRunRepository, JobRepository } from '@jobctrl/shared/jobs';
import { seedEnrichedJob } from '@jobctrl/shared/jobs/testing';
import { useBoardSimulator } from './adapters/testing/board-simulator.testing';
import type { FamilyOutcome } from '@jobctrl/pipeline/contracts';
import { createDiscoveryActivities, type DiscoveryActivityDeps } from './discovery.activities';
import { DiscoveryRuntimeRepository } from './discovery-runtime.repository';
import { DiscoveryRuntimeSettingsEntity } from './discovery-runtime-settings.entity';
import { SourceEntity } from './sources/source.entity';
import { SourceRepository } from './sources/source.repository';
import { SourceService } from './sources/source.service';

const sim = useBoardSimulator({ seed: 5, jobsPerBoard: 12, families: [{ kind: 'greenhouse', token: 'acme' }, { kind: 'aggregator', token: 'jobsearch' }] });

let dir: string;
let uow: UnitOfWorkFactory;
let sources: SourceService;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-disc-'));
  const databasePath = path.join(dir, 'jobctrl.sqlite');
  await runMigrations({ databasePath });
  uow = new UnitOfWorkFactory({ databasePath, entities: [SourceEntity, DiscoveryRuntimeSettingsEntity] });
  sources = new SourceService(new SourceRepository(uow), { allowedPrivateHosts: ['127.0.0.1'], fileSourceDirs: [dir] });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function activities(started: string[] = [], allowedPrivateHosts = ['127.0.0.1'], startPreparation?: (j: { idempotencyKey: string }) => Promise<void>, more: Partial<DiscoveryActivityDeps> = {}) {
  return createDiscoveryActivities({
    ...more,
    sources: new SourceRepository(uow),
    runtime: new DiscoveryRuntimeRepository(uow),
    jobs: new JobRepository(uow),
    runs: new DiscoveryRunRepository(uow),
    http: new HostPolicyHttpClient({ minSpacingMs: 0, maxInFlightPerHost: 4, allowedPrivateHosts }),
    internalConcurrency: () => 3,
    startPreparation: startPreparation ?? (async (j) => void started.push(j.idempotencyKey)),
  });
}

describe('discovery activities', () => {
  it('a fan-out starts every waiting job of the run, 16 starts at a time; a failed start fails the call after its group was attempted', async () => {
    const jobs = new JobRepository(uow);
    // seedEnrichedJob records its jobs under run r1.
    for (let i = 0; i < 40; i++) await seedEnrichedJob(jobs, { jobKey: `j${String(i).padStart(2, '0')}`, title: 'Engineer', company: 'Acme', description: 'Build things.' });
    const started: string[] = [];
    let inFlight = 0;
    let peak = 0;
    const start = async (j: { idempotencyKey: string }) => {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      await new Promise((r) => setTimeout(r, 20));
      inFlight -= 1;
      if (j.idempotencyKey === 'v1-j20') throw new Error('server unavailable');
      started.push(j.idempotencyKey);
    };
    const env = new MockActivityEnvironment();
    // The third group (j32…) is never attempted once the second (j16…j31, holding j20) failed.
    await expect(env.run(activities([], ['127.0.0.1'], start).fanOutPreparation, { runId: 'r1', includePendingTailor: false })).rejects.toThrow(/server unavailable/);
    expect(started).toHaveLength(31);
    expect(started).not.toContain('v1-j32');
    expect(peak).toBe(16);

    started.length = 0;
    const again = activities(started);
    expect(await env.run(again.fanOutPreparation, { runId: 'r1', includePendingTailor: false })).toEqual({ started: 40 });
    expect(new Set(started).size).toBe(40);
    expect(await env.run(again.fanOutPreparation, { runId: 'other-run', includePendingTailor: false })).toEqual({ started: 0 });
  });

  it('plans once: families from enabled sources, the runtime cap and the concurrency snapshot; a retry keeps the first plan', async () => {
    const a = await sources.create({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim().url } });
    await sources.create({ kind: 'greenhouse', name: 'off', enabled: false, config: { board_token: 'acme', base_url: sim().url } });
    const act = activities();
    const env = new MockActivityEnvironment();
    const plan = await env.run(act.planDiscoverySources, { runId: 'r1' });
    expect(plan).toEqual({ runId: 'r1', families: [{ family: 'greenhouse', sourceIds: [a.id] }], maxParallelFamilies: 1, internalConcurrency: 3 });
    await sources.create({ kind: 'greenhouse', name: 'late', config: { board_token: 'acme', base_url: sim().url } });
    expect(await env.run(act.planDiscoverySources, { runId: 'r1' })).toEqual(plan);
    await expect(env.run(act.planDiscoverySources, { runId: 'r2', sourceIds: ['00000000-0000-4000-8000-000000000000'] })).rejects.toThrow(/unknown source ids/);
    // A run that carries its own snapshot (a pipeline's discover child) plans with it, not the value now.
    expect(await env.run(act.planDiscoverySources, { runId: 'r3', internalConcurrency: 7 })).toMatchObject({ internalConcurrency: 7 });
    // A source disabled after the run was accepted is refused by name, not crawled.
    await expect(env.run(act.planDiscoverySources, { runId: 'r4', sourceIds: [a.id, (await sources.list()).find((x) => x.name === 'off')?.id ?? ''] })).rejects.toThrow(/disabled sources: off/);
  });

  it('JobStreaming runs units in order, merges cross-listed postings with the ATS job, and a retried family skips finished units', async () => {
    const gh = await sources.create({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim().url } });
    const stream = await sources.create({
      kind: 'jobstreaming',
      name: 'aggregator',
      config: { base_urls: { aggregator: sim().url }, units: [{ board: 'aggregator', query: 'engineer', location: '' }, { board: 'aggregator', query: 'manager', location: '' }] },
    });
    const act = activities();
    const env = new MockActivityEnvironment();
    await env.run(act.discoverySourceFamily, { runId: 'r1', family: { family: 'greenhouse', sourceIds: [gh.id] }, internalConcurrency: 3 });
    const before = (await new JobRepository(uow).list({ limit: 500, offset: 0 })).total;
    sim().resetStats();
    const first: FamilyOutcome = await env.run(act.discoverySourceFamily, { runId: 'r1', family: { family: 'jobstreaming', sourceIds: [stream.id] }, internalConcurrency: 3 });
    expect(first.status).toBe('completed');
    const searches = Object.entries(sim().stats().requests).filter(([p]) => p.startsWith('/search')).reduce((n, [, c]) => n + c, 0);
    expect(searches).toBeGreaterThan(0);

    // Cross-listed jobs (same canonical URL) joined the Greenhouse job instead of adding one.
    const { items } = await new JobRepository(uow).list({ limit: 500, offset: 0 });
    const crossListed = sim().manifest().jobs.filter((j) => j.crossListedOn.length > 0 && j.board === 'greenhouse:acme');
    for (const j of crossListed) {
      const stored = items.find((i) => i.url === j.url);
      // (A repost adds a second Greenhouse listing to the same job, so compare kinds as a set.)
      if (stored?.sources.some((s) => s.sourceKind === 'jobstreaming')) expect([...new Set(stored.sources.map((s) => s.sourceKind))].sort()).toEqual(['greenhouse', 'jobstreaming']);
    }
    expect(items.some((i) => i.sources.some((s) => s.sourceKind === 'jobstreaming') && i.sources.some((s) => s.sourceKind === 'greenhouse'))).toBe(true);
    expect(items.length).toBeLessThan(before + first.jobs);

    const finished = await new DiscoveryRunRepository(uow).finishedUnits('r1', stream.id);
    expect([...finished].sort()).toEqual(['aggregator:q=engineer&l=', 'aggregator:q=manager&l=']);
    // A retry of the family in the same run redoes no finished unit.
    sim().resetStats();
    const retry = await env.run(act.discoverySourceFamily, { runId: 'r1', family: { family: 'jobstreaming', sourceIds: [stream.id] }, internalConcurrency: 3 });
    expect(retry).toMatchObject({ status: 'completed', jobs: 0 });
    expect(Object.keys(sim().stats().requests).filter((p) => p.startsWith('/search'))).toEqual([]);
  });

  it('fails a family whose source answers malformed JSON as non-retryable malformed_response', async () => {
    const s = await sources.create({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim().url } });
    sim().setKnobs({ boards: { 'greenhouse:acme': { malformedJson: true } } });
    try {
      await expect(
        new MockActivityEnvironment().run(activities().discoverySourceFamily, { runId: 'r1', family: { family: 'greenhouse', sourceIds: [s.id] }, internalConcurrency: 3 }),
      ).rejects.toMatchObject({ type: 'malformed_response', nonRetryable: true });
    } finally {
      sim().setKnobs({ boards: { 'greenhouse:acme': { malformedJson: null } } });
    }
  });

  it('fails a family whose base_url the worker may not reach (allowed_private_hosts no longer lists it) as non-retryable, naming the refused address (host_refused_private_address), asking the board nothing', async () => {
    const s = await sources.create({ kind: 'greenhouse', name: 'acme', config: { board_token: 'acme', base_url: sim().url } });
    const before = JSON.stringify(sim().stats().requests);
    await expect(
      new MockActivityEnvironment().run(activities([], []).discoverySourceFamily, { runId: 'r1', family: { family: 'greenhouse', sourceIds: [s.id] }, internalConcurrency: 3 }),
    ).rejects.toMatchObject({ type: 'family_failed', nonRetryable: true, message: expect.stringMatching(/acme: refused .*127\.0\.0\.1.*loopback.*allowed_private_hosts/) });
    expect(JSON.stringify(sim().stats().requests)).toBe(before);
  });

  it('fails a family whose file source outgrew file_source_max_bytes as non-retryable, naming the file, its size and the key (#39)', async () => {
    fs.writeFileSync(path.join(dir, 'jobs.json'), JSON.stringify([{ url: 'https://jobs.example/1', title: 'Dev', company: 'Acme' }]).padEnd(200));
    const s = await sources.create({ kind: 'file', name: 'export', config: { path: 'jobs.json' } });
    await expect(
      new MockActivityEnvironment().run(activities([], [], undefined, { fileSourceDirs: [dir], fileSourceMaxBytes: 100 }).discoverySourceFamily, {
        runId: 'r1',
        family: { family: 'file', sourceIds: [s.id] },
        internalConcurrency: 3,
      }),
    ).rejects.toMatchObject({ type: 'family_failed', nonRetryable: true, message: 'export: file source jobs.json refused: is 200 bytes, more than file_source_max_bytes (100)' });
  });
});
