// The spec's paragraph "Compensation provider-row classification has a separate per-refresh bound of
// N independent determinations …", one describe block per sentence, on real SQLite files and the LLM
// simulator (OpenAI protocol) behind the product's LlmRuntime: spend ledger, preflight and all.
import { openConnectionCount, runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { LlmRuntime, SpendLedgerRepository, type LlmClient } from '@jobctrl/shared/llm';
import { startLlmSimulator, type LlmSimulator, type SimulatedLlmRequest } from '@jobctrl/shared/llm/testing';
import { CompensationRefreshCoordinator, type CapturedModel, type RefreshJob } from './compensation-refresh.coordinator';
import { CompensationRefreshRepository } from './compensation-refresh.repository';
import type { CompensationSourceRow } from './compensation-identity';

const dbs = tempDbDir('comp-refresh');
afterAll(() => dbs.cleanup());

let sim: LlmSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

async function setup(opts: { latencyMs?: number; ceilingUsd?: number; respond?: (req: SimulatedLlmRequest) => unknown } = {}) {
  const databasePath = dbs.file('refresh');
  await runMigrations({ databasePath });
  const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
  const repo = new CompensationRefreshRepository(uow);
  const ledger = new SpendLedgerRepository(uow);
  sim = await startLlmSimulator({ latencyMs: opts.latencyMs ?? 0, respond: opts.respond ?? answerFromText });
  const runtime = new LlmRuntime({ provider: 'openai', model: 'comp-model', baseUrl: sim.url, prices: { 'comp-model': { input_usd_per_mtok: 1, output_usd_per_mtok: 1 } }, timeoutMs: 5_000, effort: 'low', ledger, ceilingUsd: () => opts.ceilingUsd ?? 10 });
  const model: CapturedModel = { model: 'comp-model', effort: 'low', clientFor: (signal) => runtime.clientFor({ signal }) as LlmClient };
  return { uow, repo, ledger, model, coordinator: new CompensationRefreshCoordinator(repo), sim };
}

/** A model that reads "Salary: 60k-100k"-style statements the parser cannot decide, as USD a year. */
function answerFromText(req: SimulatedLlmRequest): unknown {
  const m = /(\d+)k\s*-\s*(\d+)k/.exec(req.user);
  return m ? { kind: 'base', currency: 'USD', interval: 'year', min: Number(m[1]) * 1000, max: Number(m[2]) * 1000, confidence: 0.9 } : { kind: 'none', currency: null, interval: null, min: null, max: null, confidence: 0.9 };
}

/** A statement the parser leaves undecided (no currency, no country), so it needs the model. */
const undecidedRow = (job: string, i: number): CompensationSourceRow => ({ sourceId: 'src-1', externalJobId: job, fieldPath: 'description', text: `Salary: ${60 + i}k - ${100 + i}k`, field: 'description' });
const jobsOf = (n: number, rowsEach = 1): RefreshJob[] => Array.from({ length: n }, (_, j) => ({ jobKey: `job-${j}`, rows: Array.from({ length: rowsEach }, (_, r) => undecidedRow(`ext-${j}`, j * rowsEach + r)) }));
const owner = (n = 1) => `owner-${n}-${Math.random().toString(36).slice(2)}`;

describe('a per-refresh bound of N independent determinations', () => {
  it('never has more than N determinations in flight, and uses all N', async () => {
    const s = await setup({ latencyMs: 120 });
    const out = await s.coordinator.run({ refreshId: 'r-bound', owner: owner(), jobs: jobsOf(9), slots: 3, model: s.model });
    expect(out.state).toBe('completed');
    expect(s.sim.requests).toHaveLength(9);
    expect(s.sim.maxConcurrent).toBe(3);
    expect(out.peakInFlight).toBe(3);
    expect(out.counts).toMatchObject({ jobs: 9, admitted: 9, completed: 9, failed: 0, published: 9 });
  });
});

describe('deduplicates the exact source identity, admits at most N leaves, retains input order, reuses accepted cache ids', () => {
  it('one leaf (and one call) per exact identity; a different field path or text is another statement', async () => {
    const s = await setup();
    const same = undecidedRow('ext-1', 1);
    const jobs: RefreshJob[] = [
      { jobKey: 'a', rows: [same, { ...same, fieldPath: 'lever.salaryDescription' }] },
      { jobKey: 'b', rows: [same] },
      { jobKey: 'c', rows: [{ ...same, text: `${same.text} ` }] },
    ];
    const out = await s.coordinator.run({ refreshId: 'r-dedup', owner: owner(), jobs, slots: 4, model: s.model });
    expect(out.leafOrder).toHaveLength(3);
    expect(s.sim.requests).toHaveLength(3);
    const a = await s.repo.publishedFor('a');
    const b = await s.repo.publishedFor('b');
    expect(b?.rows[0].determinationId).toBe(a?.rows[0].determinationId);
    expect(a?.summary).toMatchObject({ kind: 'base', currency: 'USD', min: 61_000, max: 101_000, method: 'model' });
  });

  it('admits leaves in input order', async () => {
    const s = await setup();
    const jobs = jobsOf(5);
    const out = await s.coordinator.run({ refreshId: 'r-order', owner: owner(), jobs: [...jobs].reverse(), slots: 1, model: s.model });
    const asked = s.sim.requests.map((r) => /Salary: (\d+)k/.exec(JSON.stringify(r.body))?.[1]);
    expect(asked).toEqual(['64', '63', '62', '61', '60']);
    expect(out.leafOrder).toHaveLength(5);
  });

  it('a second refresh reuses the accepted cache ids: no new call, same ids, counted as cached', async () => {
    const s = await setup();
    const jobs = jobsOf(4);
    await s.coordinator.run({ refreshId: 'r-first', owner: owner(), jobs, slots: 2, model: s.model });
    const firstIds = await Promise.all(jobs.map(async (j) => (await s.repo.publishedFor(j.jobKey))?.rows[0].determinationId));
    const second = await s.coordinator.run({ refreshId: 'r-second', owner: owner(2), jobs, slots: 2, model: s.model });
    expect(s.sim.requests).toHaveLength(4);
    expect(second.counts).toMatchObject({ admitted: 4, completed: 4, cached: 4, published: 4 });
    const secondIds = await Promise.all(jobs.map(async (j) => (await s.repo.publishedFor(j.jobKey))?.rows[0].determinationId));
    expect(secondIds).toEqual(firstIds);
    expect((await s.repo.getRefresh('r-second'))?.refreshId).toBe('r-second');
  });

  it('a parser-decided row never calls the model; a different model version is a different cache entry', async () => {
    const s = await setup();
    const parsed: CompensationSourceRow = { sourceId: 'src-1', externalJobId: 'x', fieldPath: 'lever.salaryRange', text: '$120,000 - $150,000 per year' };
    await s.coordinator.run({ refreshId: 'r-p', owner: owner(), jobs: [{ jobKey: 'p', rows: [parsed, undecidedRow('x', 7)] }], slots: 2, model: s.model });
    expect(s.sim.requests).toHaveLength(1);
    const other: CapturedModel = { ...s.model, model: 'other-model' };
    await s.coordinator.run({ refreshId: 'r-p2', owner: owner(2), jobs: [{ jobKey: 'p', rows: [parsed, undecidedRow('x', 7)] }], slots: 2, model: other });
    expect(s.sim.requests).toHaveLength(2);
    expect((await s.repo.publishedFor('p'))?.summary).toMatchObject({ kind: 'base', min: 120_000, method: 'parser', field: null });
  });
});

describe('every leaf has its own SQLite connection and the captured model, effort, product lane and spend preflight', () => {
  it('leaves write concurrently on their own connections, none held across a call, all closed after', async () => {
    // Calls long enough that the sampler sees all four in flight even on a loaded machine.
    const s = await setup({ latencyMs: 300 });
    const before = openConnectionCount();
    let peak = 0;
    let leastWhileAllCalling = Infinity;
    const timer = setInterval(() => {
      const open = openConnectionCount() - before;
      peak = Math.max(peak, open);
      if (s.sim.inFlight === 4) leastWhileAllCalling = Math.min(leastWhileAllCalling, open);
    }, 5);
    try {
      const out = await s.coordinator.run({ refreshId: 'r-conn', owner: owner(), jobs: jobsOf(8), slots: 4, model: s.model });
      expect(out.counts.completed).toBe(8);
    } finally {
      clearInterval(timer);
    }
    // A connection is open only around a leaf's own SQL (cache, spend ledger), never across its call:
    // with all four calls waiting on the model, no connection is open; at most one per leaf plus
    // the coordinator's (publication, renewal) ever are.
    expect(leastWhileAllCalling).toBe(0);
    expect(peak).toBeLessThanOrEqual(4 + 1);
    expect(openConnectionCount()).toBe(before);
  });

  it('calls the captured model with its effort, charged to the compensation lane after the preflight', async () => {
    const s = await setup();
    await s.coordinator.run({ refreshId: 'r-lane', owner: owner(), jobs: jobsOf(2), slots: 2, model: s.model });
    expect(s.sim.requests.map((r) => r.body?.['model'])).toEqual(['comp-model', 'comp-model']);
    const spend = await s.ledger.summary();
    expect(spend.byLane.compensation).toBeGreaterThan(0);
    expect(spend.calls).toBe(2);
  });

  it('a spend ceiling already reached stops every leaf before its call: failed, no request, nothing charged', async () => {
    const s = await setup({ ceilingUsd: 0 });
    const out = await s.coordinator.run({ refreshId: 'r-ceiling', owner: owner(), jobs: jobsOf(3), slots: 2, model: s.model });
    expect(s.sim.requests).toHaveLength(0);
    expect(out.counts).toMatchObject({ admitted: 3, completed: 0, failed: 3 });
    const published = await s.repo.publishedFor('job-0');
    // The job's pay is unknown (a failed row), not "no compensation".
    expect(published?.summary).toBeNull();
    expect(published?.rows[0]).toMatchObject({ determinationId: null, result: null, error: 'spend_ceiling_reached' });
  });
});

describe('publication-owner guards run only on the coordinator; model-attempt cancellation uses a stop signal', () => {
  it('a job whose lease another owner took over is not published by this refresh; its leaves still cache their results', async () => {
    const s = await setup({ latencyMs: 150 });
    const me = owner();
    const run = s.coordinator.run({ refreshId: 'r-guard', owner: me, jobs: jobsOf(2), slots: 2, model: s.model, leaseMs: 60_000 });
    // While the calls are in flight, job-1's lease expires and another refresh takes it.
    await waitUntil(() => s.sim.inFlight === 2);
    await s.uow.run(({ manager }) => manager.query(`UPDATE compensation_leases SET expires_at = 0 WHERE job_key = 'job-1'`));
    expect(await s.repo.acquireLeases('r-other', 'other-owner', ['job-1'], 60_000)).toEqual(['job-1']);
    const out = await run;
    expect(out.jobs.map((j) => [j.jobKey, j.published])).toEqual([['job-0', true], ['job-1', false]]);
    expect(await s.repo.publishedFor('job-1')).toBeNull();
    expect(out.counts.completed).toBe(2);
    const cached = await s.uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM compensation_determinations`));
    expect(cached[0].n).toBe(2);
    // The other owner's lease is untouched by this refresh's release.
    const leases = await s.uow.run(({ manager }) => manager.query(`SELECT job_key, owner FROM compensation_leases`));
    expect(leases).toEqual([{ job_key: 'job-1', owner: 'other-owner' }]);
  });

  it('aborting the refresh aborts the model calls in flight through the one stop signal', async () => {
    const s = await setup({ latencyMs: 10_000 });
    const ac = new AbortController();
    const run = s.coordinator.run({ refreshId: 'r-stop', owner: owner(), jobs: jobsOf(5), slots: 3, model: s.model, signal: ac.signal });
    await waitUntil(() => s.sim.inFlight === 3);
    const t0 = Date.now();
    ac.abort();
    const out = await run;
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(out.state).toBe('cancelled');
    expect(out.counts).toMatchObject({ admitted: 3, completed: 0, failed: 3, published: 0 });
    expect(await s.repo.getRefresh('r-stop')).toMatchObject({ state: 'cancelled', error: 'refresh_cancelled', admitted: 3 });
  });
});

describe('an aborted batch releases its still-owned leases before waiting for admitted calls to settle and account usage', () => {
  it('leases are gone while an admitted call is still settling; its usage is charged when it settles', async () => {
    const s = await setup();
    const gate = deferred<void>();
    const answered = deferred<void>();
    // A client whose answer comes back, then is held before the leaf sees it (so the call is
    // admitted and charged, but has not settled when the refresh is aborted).
    const held: CapturedModel = {
      ...s.model,
      clientFor: (signal) => {
        const inner = s.model.clientFor(signal);
        return { ...inner, provider: inner.provider, model: inner.model, estimateCostUsd: (r) => inner.estimateCostUsd(r), generate: async (r) => { const v = await inner.generate(r); answered.resolve(); await gate.promise; return v; } };
      },
    };
    const ac = new AbortController();
    const run = s.coordinator.run({ refreshId: 'r-release', owner: owner(), jobs: jobsOf(1), slots: 1, model: held, signal: ac.signal });
    await answered.promise;
    ac.abort();
    await waitUntil(async () => (await s.uow.run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM compensation_leases`)))[0].n === 0);
    expect((await s.ledger.summary()).calls).toBe(1); // charged when its answer came back
    gate.resolve();
    const out = await run;
    expect(out.state).toBe('cancelled');

    // Those calls can retain valid classification cache results but cannot publish the cancelled refresh.
    expect(out.counts).toMatchObject({ completed: 1, published: 0 });
    const cached = await s.uow.run(({ manager }) => manager.query(`SELECT method FROM compensation_determinations`));
    expect(cached).toEqual([{ method: 'model' }]);
    expect(await s.repo.publishedFor('job-0')).toBeNull();
  });
});

describe('healthy classification renews live leases; an expired or replaced owner cannot renew or publish', () => {
  it('a refresh longer than its lease keeps its jobs while leaves keep succeeding', async () => {
    const s = await setup({ latencyMs: 400 });
    // Ten sequential leaves of ≥ 400 ms for one job: ≥ 4 s against a 3 s lease (each leaf far inside
    // one lease, so that a loaded machine's slower leaves still renew in time).
    const out = await s.coordinator.run({ refreshId: 'r-renew', owner: owner(), jobs: jobsOf(1, 10), slots: 1, model: s.model, leaseMs: 3_000 });
    expect(out.jobs[0]).toMatchObject({ published: true });
    expect((await s.repo.publishedFor('job-0'))?.rows).toHaveLength(10);
  });

  it('an expired owner can neither renew nor publish; a replaced owner neither', async () => {
    const s = await setup();
    const t = 1_000_000;
    expect(await s.repo.acquireLeases('r1', 'A', ['j'], 100, t)).toEqual(['j']);
    expect(await s.repo.acquireLeases('r2', 'B', ['j'], 100, t + 50)).toEqual([]); // A's lease is live
    expect(await s.repo.renewLeases('A', ['j'], 100, t + 50)).toEqual(['j']);
    // Expired: not renewable, not publishable.
    expect(await s.repo.renewLeases('A', ['j'], 100, t + 500)).toEqual([]);
    expect(await s.repo.publish('A', 'r1', 'j', null, [], t + 500)).toBe(false);
    // Replaced: B takes the expired lease; A still cannot do either.
    expect(await s.repo.acquireLeases('r2', 'B', ['j'], 100, t + 500)).toEqual(['j']);
    expect(await s.repo.renewLeases('A', ['j'], 100, t + 510)).toEqual([]);
    expect(await s.repo.publish('A', 'r1', 'j', null, [], t + 510)).toBe(false);
    expect(await s.repo.publish('B', 'r2', 'j', null, [], t + 510)).toBe(true);
    expect(await s.repo.publishedFor('j')).toMatchObject({ refreshId: 'r2', summary: null });
  });
});

describe('a model answer is untrusted input', () => {
  it('a figure the text does not contain is refused, the row stays undecided, and the job shows no invented pay', async () => {
    const s = await setup({ respond: () => ({ kind: 'base', currency: 'USD', interval: 'year', min: 150_000, max: 250_000, confidence: 1 }) });
    const row: CompensationSourceRow = { sourceId: 'src', externalJobId: 'e', fieldPath: 'description', text: 'Salary: 60k-90k', field: 'description' };
    const out = await s.coordinator.run({ refreshId: 'r-lie', owner: owner(), jobs: [{ jobKey: 'lie', rows: [row] }], slots: 1, model: s.model });
    expect(out.jobs[0]).toMatchObject({ published: true, summary: null });
    const pub = await s.repo.publishedFor('lie');
    expect(pub?.rows[0].result).toMatchObject({ decided: false, method: 'model', reason: 'model_min_not_in_text' });
  });
});

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}
