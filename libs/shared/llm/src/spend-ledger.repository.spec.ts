import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { runMigrations, UnitOfWorkFactory } from '@jobctrl/shared/db';
import { tempDbDir } from '@jobctrl/shared/db/testing';
import { LlmError } from './llm.errors';
import { LlmRuntime, toSpendfulFailure } from './llm-runtime';
import type { LlmClient, LlmUsage } from './llm.types';
import { SpendCeilingReachedError } from './spend-gate';
import { msUntilNextSpendDay, RESERVATION_TTL_MS, spendDay, SpendLedgerRepository, type SpendLedgerOptions, type WorkerHeartbeatStatus, type WorkerLiveness } from './spend-ledger.repository';
import { startLlmSimulator } from './testing/llm-simulator';

const dbs = tempDbDir('spend');
afterAll(() => dbs.cleanup());

async function ledger(): Promise<SpendLedgerRepository> {
  const databasePath = dbs.file('ledger');
  await runMigrations({ databasePath });
  return new SpendLedgerRepository(new UnitOfWorkFactory({ databasePath, entities: [] }));
}

/** A migrated database, and ledgers on it as separate processes would have them (each its own connections). */
async function sharedDatabase(): Promise<{ databasePath: string; open(options?: SpendLedgerOptions): SpendLedgerRepository; rows(sql: string): Promise<Array<Record<string, unknown>>> }> {
  const databasePath = dbs.file('shared');
  await runMigrations({ databasePath });
  const reader = new UnitOfWorkFactory({ databasePath, entities: [] });
  return {
    databasePath,
    open: (options) => new SpendLedgerRepository(new UnitOfWorkFactory({ databasePath, entities: [] }), options),
    rows: (sql) => reader.run(({ manager }) => manager.query(sql)),
  };
}

/**
 * Worker liveness as the heartbeat table would answer it (the real one, heartbeatLiveness in
 * libs/operations, is tested there against worker_heartbeats): last heartbeat per worker.
 */
function livenessOf(lastHeartbeat: Map<string, number>, staleMs = 30_000): WorkerLiveness & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    staleMs,
    asked,
    async status(ids, now) {
      asked.push([...ids]);
      return new Map(
        ids.map((id): [string, WorkerHeartbeatStatus] => {
          const at = lastHeartbeat.get(id);
          if (at === undefined) return [id, { state: 'absent' }];
          return [id, now - at <= staleMs ? { state: 'fresh', freshUntil: at + staleMs } : { state: 'stale' }];
        }),
      );
    },
  };
}

const reviewCall = { lane: 'review' as const, provider: 'openai' as const, model: 'm', effort: 'high' as const, jobKey: 'j1' };

const usage = (o: Partial<LlmUsage> = {}): LlmUsage => ({
  provider: 'openai',
  model: 'm',
  lane: 'cover',
  effort: 'medium',
  inputTokens: 100,
  outputTokens: 50,
  costUsd: 0.01,
  outcome: 'ok',
  ...o,
});

describe('SpendLedgerRepository', () => {
  it('sums today by lane; another day does not count', async () => {
    const l = await ledger();
    const now = new Date(2026, 10, 30, 12).getTime();
    await l.record(usage({ lane: 'score', costUsd: 0.02 }), { jobKey: 'j1' }, now);
    await l.record(usage({ lane: 'review', costUsd: 0.03 }), {}, now);
    await l.record(usage({ lane: 'review', costUsd: 0.05, outcome: 'invalid_output' }), {}, now);
    await l.record(usage({ lane: 'score', costUsd: 9 }), {}, now - 24 * 3600_000);
    const s = await l.summary(spendDay(now));
    expect(s.totalUsd).toBeCloseTo(0.1);
    expect(s.byLane).toMatchObject({ score: 0.02, review: 0.08, tailor: 0, cover: 0, compensation: 0 });
    expect(s.calls).toBe(3);
  });

  it('names the local day and the time to its rollover', () => {
    const t = new Date(2026, 10, 30, 23, 59, 0).getTime();
    expect(spendDay(t)).toBe('2026-11-30');
    expect(msUntilNextSpendDay(t)).toBe(60_000);
  });

  it('admits within the ceiling, makes a call wait behind in-flight reservations, lets the last call use the remainder', async () => {
    const l = await ledger();
    const a = await l.reserve(0.4, 1);
    const b = await l.reserve(0.4, 1);
    expect(a.kind).toBe('admitted');
    expect(b.kind).toBe('admitted');
    // 0.8 reserved: another 0.4 would not fit while they are in flight.
    expect((await l.reserve(0.4, 1)).kind).toBe('wait');
    await l.record(usage({ costUsd: 0.3 }));
    await l.release((a as { reservationId: string }).reservationId);
    await l.record(usage({ costUsd: 0.3 }));
    await l.release((b as { reservationId: string }).reservationId);
    // 0.6 spent, nothing in flight: a 0.5 call may take the day over the ceiling by at most its own cost.
    const last = await l.reserve(0.5, 1);
    expect(last.kind).toBe('admitted');
    expect((await l.reserve(0.01, 1)).kind).toBe('wait');
    await l.record(usage({ costUsd: 0.5 }));
    await l.release((last as { reservationId: string }).reservationId);
    // At or over the ceiling, nothing is admitted.
    expect(await l.reserve(0.001, 1)).toEqual({ kind: 'refused', spentUsd: expect.closeTo(1.1) });
  });

  it("charges a crashed caller's expired reservation as an unknown call at its estimate, on the reservation's day, with its job; the budget it held is spent, not freed", async () => {
    const l = await ledger();
    const reservedAt = Date.now() - RESERVATION_TTL_MS - 60_000;
    expect((await l.reserve(0.6, 1, reservedAt, reviewCall)).kind).toBe('admitted');
    // Before #15 the expired reservation was deleted and 0.6 could be admitted against an empty day.
    expect(await l.reserve(0.6, 1)).toEqual({ kind: 'admitted', reservationId: expect.any(String), spentUsd: expect.closeTo(0.6) });
    const s = await l.summary(spendDay(reservedAt));
    expect(s).toMatchObject({ calls: 1, unknownOutcomeCalls: 1, totalUsd: expect.closeTo(0.6), unknownOutcomeUsd: expect.closeTo(0.6) });
    expect(s.byLane.review).toBeCloseTo(0.6);
  });

  it('the summary settles expired reservations too; a reservation from before the migration (no lane, no owner) is charged under lane unknown, in the total but no lane', async () => {
    const db = await sharedDatabase();
    const l = db.open();
    const now = Date.now();
    await db.rows(`INSERT INTO llm_spend_reservations (id, day, estimate_usd, expires_at) VALUES ('legacy', '${spendDay(now)}', 0.25, ${now - 1})`);
    const s = await l.summary(spendDay(now), now);
    expect(s).toMatchObject({ calls: 1, unknownOutcomeCalls: 1, totalUsd: 0.25 });
    expect(Object.values(s.byLane).every((usd) => usd === 0)).toBe(true);
    expect(await db.rows(`SELECT lane, provider, model, effort, input_tokens, output_tokens, outcome, reservation_id FROM llm_spend`)).toEqual([
      { lane: 'unknown', provider: 'unknown', model: 'unknown', effort: 'unknown', input_tokens: 0, output_tokens: 0, outcome: 'unknown', reservation_id: 'legacy' },
    ]);
    expect(await db.rows(`SELECT id FROM llm_spend_reservations`)).toEqual([]);
  });
});

describe('SpendLedgerRepository: reservations of a dead worker (issue #15: a spend figure is never low after a crash)', () => {
  it("settles a worker's reservations as soon as its heartbeat is stale (not after the TTL); a live worker's in-flight call is untouched", async () => {
    const db = await sharedDatabase();
    const now = Date.now();
    const heartbeats = new Map([
      ['dead', now - 31_000],
      ['live', now - 1_000],
    ]);
    const dead = db.open({ owner: 'dead' });
    const live = db.open({ owner: 'live' });
    const deadCall = await dead.reserve(0.3, 10, now - 60_000, reviewCall);
    const liveCall = await live.reserve(0.2, 10, now - 60_000, { ...reviewCall, lane: 'score', jobKey: 'j2' });
    expect([deadCall.kind, liveCall.kind]).toEqual(['admitted', 'admitted']);

    // The API's ledger (no owner of its own) reads today's spend one minute into both calls.
    const api = db.open({ liveness: livenessOf(heartbeats) });
    const s = await api.summary(spendDay(now), now);
    expect(s).toMatchObject({ calls: 1, unknownOutcomeCalls: 1, totalUsd: expect.closeTo(0.3) });
    expect(await db.rows(`SELECT lane, provider, model, effort, cost_usd, outcome, job_key, reservation_id FROM llm_spend`)).toEqual([
      { lane: 'review', provider: 'openai', model: 'm', effort: 'high', cost_usd: 0.3, outcome: 'unknown', job_key: 'j1', reservation_id: (deadCall as { reservationId: string }).reservationId },
    ]);
    // The live worker's call is still in flight: reserved, not charged.
    expect(await db.rows(`SELECT id, owner FROM llm_spend_reservations`)).toEqual([{ id: (liveCall as { reservationId: string }).reservationId, owner: 'live' }]);
    // It completes and is charged once, at its real usage.
    await live.recordAndRelease(usage({ lane: 'score', costUsd: 0.05 }), { jobKey: 'j2' }, (liveCall as { reservationId: string }).reservationId, now);
    expect(await api.summary(spendDay(now), now)).toMatchObject({ calls: 2, unknownOutcomeCalls: 1, totalUsd: expect.closeTo(0.35) });
  });

  it("reserve() settles a dead worker's reservations too, and a worker with no heartbeat at all only once its reservation is older than the stale window", async () => {
    const db = await sharedDatabase();
    const now = Date.now();
    const liveness = livenessOf(new Map([['me', now]]), 30_000);
    const me = db.open({ owner: 'me', liveness });
    // Two workers that never wrote a heartbeat (or whose row is gone): one reserved long ago, one just now (a worker starting up).
    await db.open({ owner: 'gone' }).reserve(0.4, 1, now - 31_000, reviewCall);
    await db.open({ owner: 'starting' }).reserve(0.1, 1, now - 1_000, reviewCall);
    // 0.5 held in flight: 0.6 more does not fit, so this call waits; the dead worker's reservation is settled meanwhile.
    expect((await me.reserve(0.6, 1, now, reviewCall)).kind).toBe('wait');
    expect(await db.rows(`SELECT owner FROM llm_spend_reservations`)).toEqual([{ owner: 'starting' }]);
    // Asked again, the dead call's 0.4 is spent (not freed): 0.4 + 0.1 in flight + 0.6 still does not fit.
    expect(await me.reserve(0.6, 1, now, reviewCall)).toEqual({ kind: 'wait', spentUsd: expect.closeTo(0.4) });
    expect(await me.reserve(0.4, 1, now, reviewCall)).toMatchObject({ kind: 'admitted', spentUsd: expect.closeTo(0.4) });
    // This worker's own reservations never need its heartbeat read.
    expect(liveness.asked.flat()).not.toContain('me');
  });

  it('two processes settling the same dead reservation at once charge it once', async () => {
    const db = await sharedDatabase();
    const now = Date.now();
    const deadAt = new Map([['dead', now - 60_000]]);
    await db.open({ owner: 'dead' }).reserve(0.3, 10, now - 60_000, reviewCall);
    const a = db.open({ owner: 'a', liveness: livenessOf(deadAt) });
    const b = db.open({ owner: 'b', liveness: livenessOf(deadAt) });
    const api = db.open({ liveness: livenessOf(deadAt) });
    await Promise.all([a.summary(spendDay(now), now), b.reserve(0.1, 10, now, reviewCall), api.summary(spendDay(now), now), a.reserve(0.1, 10, now, reviewCall)]);
    expect(await db.rows(`SELECT COUNT(*) AS n, SUM(cost_usd) AS usd FROM llm_spend WHERE outcome = 'unknown'`)).toEqual([{ n: 1, usd: 0.3 }]);
    expect((await api.summary(spendDay(now), now)).unknownOutcomeCalls).toBe(1);
  });

  it('a call that completes after it was settled as unknown (its worker was only paused) replaces the estimate with its real usage: never charged twice', async () => {
    const db = await sharedDatabase();
    const now = Date.now();
    const paused = db.open({ owner: 'paused' });
    const heartbeats = new Map([['paused', now - 60_000]]);
    const api = db.open({ liveness: livenessOf(heartbeats) });

    // A call with a repair: its first attempt (invalid output) was recorded before the pause, so the
    // settlement charges the rest of the estimate only.
    const repaired = (await paused.reserve(0.5, 10, now - 60_000, reviewCall)) as { reservationId: string };
    await paused.record(usage({ lane: 'review', costUsd: 0.1, outcome: 'invalid_output' }), { jobKey: 'j1', reservationId: repaired.reservationId }, now - 50_000);
    // A plain call.
    const plain = (await paused.reserve(0.2, 10, now - 60_000, reviewCall)) as { reservationId: string };
    expect(await api.summary(spendDay(now), now)).toMatchObject({ calls: 3, unknownOutcomeCalls: 2, totalUsd: expect.closeTo(0.7) });

    // The worker resumes; both calls report back.
    await paused.recordAndRelease(usage({ lane: 'review', costUsd: 0.12 }), { jobKey: 'j1' }, repaired.reservationId, now);
    await paused.recordAndRelease(usage({ lane: 'review', costUsd: 0.03 }), { jobKey: 'j1' }, plain.reservationId, now);
    expect(await api.summary(spendDay(now), now)).toMatchObject({ calls: 3, unknownOutcomeCalls: 0, totalUsd: expect.closeTo(0.25) });

    // A call that ends with nothing recorded after its settlement (released by the gate): it spent
    // what it recorded before, so its unknown row goes too.
    const silent = (await paused.reserve(0.2, 10, now - 60_000, reviewCall)) as { reservationId: string };
    expect((await api.summary(spendDay(now), now)).unknownOutcomeCalls).toBe(1);
    await paused.release(silent.reservationId);
    expect(await api.summary(spendDay(now), now)).toMatchObject({ calls: 3, unknownOutcomeCalls: 0, totalUsd: expect.closeTo(0.25) });
  });
});

describe('LlmRuntime with the spend gate (priced OpenAI-compatible server)', () => {
  it('records every call to the ledger and stops before the call once the ceiling is reached, over by at most one call', async () => {
    const sim = await startLlmSimulator({ latencyMs: 20, respond: () => ({ ok: true }) });
    try {
      const l = await ledger();
      // ~1000 input tokens at 1000 $/Mtok: every call costs about $1.
      const ceiling = 5;
      const runtime = new LlmRuntime({
        provider: 'openai',
        model: 'priced',
        baseUrl: sim.url,
        prices: { priced: { input_usd_per_mtok: 1000, output_usd_per_mtok: 1000 } },
        timeoutMs: 5000,
        ledger: l,
        ceilingUsd: () => ceiling,
      });
      const request = { lane: 'score' as const, system: 's', user: 'x'.repeat(4000), schemaName: 'x', schema: { type: 'object' }, parse: (v: unknown) => v, maxOutputTokens: 10 };
      const results = await Promise.allSettled(Array.from({ length: 10 }, () => (runtime.clientFor({ jobKey: "j" }) as LlmClient).generate(request)));
      const refused = results.filter((r) => r.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(SpendCeilingReachedError);
      const spent = (await l.summary()).totalUsd;
      const oneCall = 1.01;
      expect(spent).toBeGreaterThanOrEqual(ceiling);
      expect(spent).toBeLessThanOrEqual(ceiling + oneCall);
      expect(sim.requests.length).toBe(results.length - refused.length);
      await expect((runtime.clientFor({}) as LlmClient).generate(request)).rejects.toMatchObject({ code: 'spend_ceiling_reached' });
    } finally {
      await sim.close();
    }
  });

  it("releases a call's reservation with its last record (one writer transaction): two units of work per call, three with a repair; nothing left reserved", async () => {
    const sim = await startLlmSimulator({ respond: () => ({ ok: true }) });
    try {
      const databasePath = dbs.file('settle');
      await runMigrations({ databasePath });
      const uow = new UnitOfWorkFactory({ databasePath, entities: [] });
      let units = 0;
      const run = uow.run.bind(uow);
      uow.run = ((fn: Parameters<typeof run>[0]) => (units++, run(fn))) as typeof uow.run;
      const l = new SpendLedgerRepository(uow);
      const runtime = new LlmRuntime({ provider: 'openai', model: 'm', baseUrl: sim.url, prices: { m: { input_usd_per_mtok: 1, output_usd_per_mtok: 1 } }, timeoutMs: 5000, ledger: l, ceilingUsd: () => 100 });
      const reserved = () => run(({ manager }) => manager.query(`SELECT COUNT(*) AS n FROM llm_spend_reservations`) as Promise<Array<{ n: number }>>).then((r) => Number(r[0].n));
      const request = { lane: 'score' as const, system: 's', user: 'u', schemaName: 'x', schema: { type: 'object' }, parse: (v: unknown) => v };

      await (runtime.clientFor({ jobKey: 'j' }) as LlmClient).generate(request);
      expect(units).toBe(2); // reserve; record + release
      expect(await reserved()).toBe(0);

      // The first answer does not parse: a repair turn follows under the same reservation, so that
      // attempt is recorded alone and the reservation goes with the second attempt's record.
      units = 0;
      let parses = 0;
      const repaired = await (runtime.clientFor({ jobKey: 'j' }) as LlmClient).generate({
        ...request,
        parse: (v: unknown) => {
          if (parses++ === 0) throw new Error('not yet');
          return v;
        },
      });
      expect(repaired.usage.map((u) => u.outcome)).toEqual(['invalid_output', 'ok']);
      expect(units).toBe(3);
      expect(await reserved()).toBe(0);
      expect((await l.summary()).calls).toBe(3);
    } finally {
      await sim.close();
    }
  });

  it('charges a server that reports no usage by estimated tokens, so the ceiling still holds', async () => {
    const sim = await startLlmSimulator({ respond: () => ({ ok: true }), usage: () => null });
    try {
      const l = await ledger();
      const runtime = new LlmRuntime({
        provider: 'openai', model: 'quiet', baseUrl: sim.url, prices: { quiet: { input_usd_per_mtok: 1000, output_usd_per_mtok: 1000 } },
        timeoutMs: 5000, ledger: l, ceilingUsd: () => 100,
      });
      const request = { lane: 'cover' as const, system: 's', user: 'x'.repeat(4000), schemaName: 'x', schema: { type: 'object' }, parse: (v: unknown) => v };
      const { usage } = await (runtime.clientFor({}) as LlmClient).generate(request);
      expect(usage).toEqual([expect.objectContaining({ estimated: true, inputTokens: expect.any(Number), outputTokens: expect.any(Number) })]);
      expect(usage[0].inputTokens).toBeGreaterThanOrEqual(1000);
      const summary = await l.summary();
      expect(summary.calls).toBe(1);
      expect(summary.byLane.cover).toBeGreaterThan(1);
    } finally {
      await sim.close();
    }
  });

  it('charges a call cancelled in flight at its reservation\'s worst case: the ledger counts every request the server saw', async () => {
    const sim = await startLlmSimulator({ respond: () => ({ ok: true }) });
    try {
      const l = await ledger();
      const runtime = pricedRuntime(sim.url, l, 100);
      const answered = await (runtime.clientFor({ jobKey: 'j' }) as LlmClient).generate(pricedRequest);
      sim.enqueue({ hangMs: 60_000 });
      const activity = new AbortController();
      const client = runtime.clientFor({ jobKey: 'j', signal: activity.signal }) as LlmClient;
      const call = client.generate(pricedRequest);
      await until(() => sim.inFlight === 1);
      activity.abort();
      await expect(call).rejects.toMatchObject({ code: 'llm_cancelled' });
      const summary = await l.summary();
      expect(summary.calls).toBe(sim.requests.length);
      expect(summary.calls).toBe(2);
      // The answered call at its reported usage, the cancelled one at the worst case admission assumed for it.
      expect(summary.totalUsd).toBeCloseTo(answered.usage[0].costUsd + client.estimateCostUsd(pricedRequest), 9);
    } finally {
      await sim.close();
    }
  });

  it('a cancelled admission wait is a cancellation, not a spend refusal; the wait calls onWait; nothing is sent or charged', async () => {
    const sim = await startLlmSimulator({ respond: () => ({ ok: true }) });
    try {
      const l = await ledger();
      const runtime = pricedRuntime(sim.url, l, 5);
      // Another caller holds most of today's budget in flight, so this call has to wait for it.
      expect((await l.reserve(4.5, 5)).kind).toBe('admitted');
      const activity = new AbortController();
      let waits = 0;
      const onWait = (): void => {
        waits += 1;
        // Cancelled after a couple of polls: the wait must stop there and say so.
        if (waits === 2) activity.abort(new CancelledFailure('activity cancelled'));
      };
      const err = await (runtime.clientFor({ jobKey: 'j', signal: activity.signal, onWait }) as LlmClient).generate(pricedRequest).catch((e: unknown) => e);
      expect(err).not.toBeInstanceOf(SpendCeilingReachedError);
      expect(err).toBeInstanceOf(LlmError);
      expect(err).toMatchObject({ code: 'llm_cancelled' });
      expect(waits).toBe(2);
      expect(sim.requests).toHaveLength(0);
      expect((await l.summary()).calls).toBe(0);
      // The activity layer reports it as the activity's cancellation (Temporal: cancelled, not failed).
      expect(toSpendfulFailure(err)).toBeInstanceOf(CancelledFailure);
      // A real refusal stays the spend error.
      expect(toSpendfulFailure(new SpendCeilingReachedError(5))).toBeInstanceOf(ApplicationFailure);
    } finally {
      await sim.close();
    }
  });

  it('has no client for the extractive provider', () => {
    const runtime = new LlmRuntime({ provider: 'extractive', prices: {}, timeoutMs: 1000, ledger: {} as SpendLedgerRepository, ceilingUsd: () => 0 });
    expect(runtime.clientFor({})).toBeNull();
  });
});

/** ~1000 input tokens at 1000 $/Mtok: about $1 a call. */
function pricedRuntime(baseUrl: string, l: SpendLedgerRepository, ceiling: number): LlmRuntime {
  return new LlmRuntime({
    provider: 'openai', model: 'priced', baseUrl, prices: { priced: { input_usd_per_mtok: 1000, output_usd_per_mtok: 1000 } },
    timeoutMs: 60_000, ledger: l, ceilingUsd: () => ceiling,
  });
}

const pricedRequest = { lane: 'review' as const, system: 's', user: 'x'.repeat(3000), schemaName: 'x', schema: { type: 'object' }, parse: (v: unknown) => v, maxOutputTokens: 10 };

/** Polls a condition (no timing assertion: jest's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}
