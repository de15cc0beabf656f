import { randomUUID } from 'node:crypto';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { SPEND_LANES, type Effort, type LlmUsage, type ModelProviderName, type SpendLane } from './llm.types';

/** Today's spend, by lane, against the ceiling. */
export interface SpendSummary {
  day: string;
  totalUsd: number;
  byLane: Record<SpendLane, number>;
  calls: number;
  /**
   * Calls whose outcome is unknown: their worker died mid-call (kill -9, crash), so the provider may
   * have billed them and nothing was recorded; each is charged at its reservation's estimate (the
   * call and its one repair, the worst case). Included in `calls` and the totals.
   */
  unknownOutcomeCalls: number;
  unknownOutcomeUsd: number;
}

/**
 * The spend day is the worker's local calendar day: "today's spend" means what the user thinks of
 * as today, and the ceiling resets at local midnight.
 */
export function spendDay(now = Date.now()): string {
  const d = new Date(now);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** The extractive provider spends nothing, so the ceiling never stops it (even a ceiling of 0). */
export function spendCeilingReached(provider: string, spentUsd: number, ceilingUsd: number): boolean {
  return provider !== 'extractive' && spentUsd >= ceilingUsd;
}

/** Milliseconds until the next local midnight (when the ceiling resets). */
export function msUntilNextSpendDay(now = Date.now()): number {
  const d = new Date(now);
  const next = new Date(d.getFullYear(), d.getMonth(), d.getDate() + 1).getTime();
  return Math.max(1, next - now);
}

export type SpendAdmission =
  | { kind: 'admitted'; reservationId: string; spentUsd: number }
  | { kind: 'wait'; spentUsd: number }
  | { kind: 'refused'; spentUsd: number };

/**
 * A reservation older than this is a crashed caller's: it settles as an `unknown` call (see
 * SpendLedgerRepository) even when nobody can tell whether its worker is alive.
 */
export const RESERVATION_TTL_MS = 10 * 60_000;

/** What a reservation's ledger row needs if its call never reports back. */
export interface ReservedCall {
  lane: SpendLane;
  provider: ModelProviderName;
  model: string;
  effort?: Effort;
  jobKey?: string;
}

/** A recorded attempt's context: its job, and the reservation it was made under (if still held). */
export interface SpendContext {
  jobKey?: string;
  reservationId?: string;
}

/**
 * Whether the workers that own reservations are alive, by the heartbeat table's own rule (the
 * operations lib implements it: libs/operations heartbeatLiveness). This lib cannot read heartbeats
 * itself (shared libs do not import domain libs), so the wiring hands it in.
 */
export interface WorkerLiveness {
  /** The heartbeat stale window (worker_heartbeat_stale_seconds), the one threshold used for both cases below. */
  readonly staleMs: number;
  /**
   * Per worker id: `fresh` until `freshUntil` (its last heartbeat + the stale window), `stale` (a
   * heartbeat older than the window), or `absent` (no heartbeat row at all).
   */
  status(workerIds: readonly string[], now: number): Promise<ReadonlyMap<string, WorkerHeartbeatStatus>>;
}
export type WorkerHeartbeatStatus = { state: 'fresh'; freshUntil: number } | { state: 'stale' } | { state: 'absent' };

export interface SpendLedgerOptions {
  /** This process's worker id (worker_heartbeats.worker_id): the owner of the reservations it takes. */
  owner?: string;
  /** Without it, an abandoned reservation settles only at its TTL. */
  liveness?: WorkerLiveness;
}

type Query = { query(sql: string, params?: unknown[]): Promise<any> }; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Which reservations a settlement charges: expired ones, and those of dead owners. */
interface DeadOwners {
  /** Owners whose heartbeat is stale: all their reservations. */
  stale: string[];
  /** Owners with no heartbeat: their reservations older than the stale window (a worker starting up has not written one yet). */
  absent: string[];
  absentBefore: number;
}

const NO_DEAD_OWNERS: DeadOwners = { stale: [], absent: [], absentBefore: 0 };

/**
 * The spend ledger: one row per model attempt that consumed tokens, plus reservations for admitted
 * calls still in flight. Admission and recording both take the writer reservation, so concurrent
 * callers (in this or another worker process) see each other's reservations.
 *
 * A spend figure is never low after a crash: a reservation is never dropped silently. When its call
 * cannot report back — the reservation expired (RESERVATION_TTL_MS), or its owning worker's
 * heartbeat went stale (dead: kill -9, crash) — it becomes an `llm_spend` row with outcome
 * `unknown`, charged at its estimate less what the call already recorded, in the writer transaction
 * that removes it. A late record of the same call (the worker was only paused, not dead) replaces
 * that row with the real usage, so it is never charged twice.
 */
export class SpendLedgerRepository {
  /** Owners known alive, until when (their last heartbeat + the stale window): they need no re-read before then. */
  private readonly freshUntil = new Map<string, number>();

  constructor(
    private readonly uow: UnitOfWorkFactory,
    private readonly options: SpendLedgerOptions = {},
  ) {}

  async record(usage: LlmUsage, context: SpendContext = {}, now = Date.now()): Promise<void> {
    // Writes take the writer turn like every other writer (see writer-reservation.ts): a plain
    // autocommit write would wait for the lock inside SQLite, on a libuv thread.
    await this.uow.run(({ transaction }) => transaction((m) => this.insert(m, usage, context, now), 'immediate'));
  }

  /**
   * A call's last attempt: its usage recorded and the call's reservation released in one writer
   * transaction (one unit of work instead of two). The spend is in the ledger before the reservation
   * that held its budget goes, as with record then release.
   */
  async recordAndRelease(usage: LlmUsage, context: { jobKey?: string }, reservationId: string, now = Date.now()): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await this.insert(m, usage, { ...context, reservationId }, now);
        await m.query(`DELETE FROM llm_spend_reservations WHERE id = ?`, [reservationId]);
      }, 'immediate'),
    );
  }

  private async insert(m: Query, usage: LlmUsage, context: SpendContext, now: number): Promise<void> {
    // The call reported back after all: the real usage replaces the estimate its reservation was
    // settled at (the reservation is gone then, so the call's other attempts find no row to replace).
    if (context.reservationId) await m.query(`DELETE FROM llm_spend WHERE reservation_id = ? AND outcome = 'unknown'`, [context.reservationId]);
    await m.query(
      `INSERT INTO llm_spend (day, recorded_at, lane, provider, model, effort, input_tokens, output_tokens, cost_usd, outcome, job_key, reservation_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [spendDay(now), now, usage.lane, usage.provider, usage.model, usage.effort, usage.inputTokens, usage.outputTokens, usage.costUsd, usage.outcome, context.jobKey ?? null, context.reservationId ?? null],
    );
  }

  /**
   * Today's spend. Abandoned reservations (expired, or a dead worker's) are settled first, so the
   * figure includes the calls that may have been billed without reporting back.
   */
  async summary(day = spendDay(), now = Date.now()): Promise<SpendSummary> {
    const read = () =>
      this.uow.run(async ({ manager }) => ({
        rows: (await manager.query(
          `SELECT lane, SUM(cost_usd) AS usd, COUNT(*) AS calls, SUM(outcome = 'unknown') AS unknownCalls, SUM(CASE WHEN outcome = 'unknown' THEN cost_usd ELSE 0 END) AS unknownUsd
           FROM llm_spend WHERE day = ? GROUP BY lane`,
          [day],
        )) as Array<{ lane: string; usd: number; calls: number; unknownCalls: number; unknownUsd: number }>,
        abandoned: await this.abandoned(manager, now),
      }));
    const first = await read();
    let rows = first.rows;
    const { expired, foreignOwners } = first.abandoned;
    if (expired > 0 || foreignOwners.length > 0) {
      const settled = await this.settle(now, expired > 0, foreignOwners);
      if (settled > 0) ({ rows } = await read());
    }
    const byLane = Object.fromEntries(SPEND_LANES.map((lane) => [lane, 0])) as Record<SpendLane, number>;
    const summary: SpendSummary = { day, totalUsd: 0, byLane, calls: 0, unknownOutcomeCalls: 0, unknownOutcomeUsd: 0 };
    for (const r of rows) {
      // A reservation taken before its lane was recorded settles under lane 'unknown': it is spend
      // (in the total and the call counts) but belongs to no lane.
      if (r.lane in byLane) byLane[r.lane as SpendLane] += r.usd;
      summary.totalUsd += r.usd;
      summary.calls += r.calls;
      summary.unknownOutcomeCalls += r.unknownCalls;
      summary.unknownOutcomeUsd += r.unknownUsd;
    }
    return summary;
  }

  /**
   * Admits a call of (at most) `estimateUsd` against `ceilingUsd`:
   * - `refused` once today's spend has reached the ceiling;
   * - `admitted` (with a reservation id) when spent + in-flight reservations + the estimate fit
   *   under the ceiling, or — so the last cents of budget are usable — when nothing else is in
   *   flight and today's spend is still below it;
   * - `wait` otherwise: in-flight calls may or may not use their reservations, so the caller asks
   *   again once they settle.
   * Either way at most one admitted call can carry the day over the ceiling, and only by its own cost.
   * Expired reservations are charged (settled as `unknown`) first; reservations of other workers are
   * checked against their heartbeats afterwards, and a dead worker's are settled then (the caller's
   * next poll sees the budget they held as spent).
   */
  async reserve(estimateUsd: number, ceilingUsd: number, now = Date.now(), call?: ReservedCall): Promise<SpendAdmission> {
    const day = spendDay(now);
    const { admission, foreignOwners } = await this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await this.settleIn(m, now, true, NO_DEAD_OWNERS);
        const foreignOwners = this.options.liveness ? await this.foreignOwners(m, now) : [];
        const spent = ((await m.query(`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_spend WHERE day = ?`, [day]))[0].usd as number) ?? 0;
        if (spent >= ceilingUsd) return { admission: { kind: 'refused', spentUsd: spent } as const, foreignOwners };
        const reserved = (await m.query(`SELECT COALESCE(SUM(estimate_usd), 0) AS usd, COUNT(*) AS n FROM llm_spend_reservations WHERE day = ?`, [day]))[0] as { usd: number; n: number };
        const fits = spent + reserved.usd + estimateUsd <= ceilingUsd;
        if (!fits && reserved.n > 0) return { admission: { kind: 'wait', spentUsd: spent } as const, foreignOwners };
        const id = randomUUID();
        await m.query(
          `INSERT INTO llm_spend_reservations (id, day, estimate_usd, expires_at, reserved_at, lane, provider, model, effort, job_key, owner) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [id, day, estimateUsd, now + RESERVATION_TTL_MS, now, call?.lane ?? null, call?.provider ?? null, call?.model ?? null, call?.effort ?? null, call?.jobKey ?? null, this.options.owner ?? null],
        );
        return { admission: { kind: 'admitted', reservationId: id, spentUsd: spent } as const, foreignOwners };
      }, 'immediate'),
    );
    if (foreignOwners.length > 0) await this.settle(now, false, foreignOwners);
    return admission;
  }

  /**
   * The call settled and everything it spent is recorded (see withSpendGate), so its reservation
   * goes — and with it an `unknown` row it may have been settled at meanwhile: the call's real
   * attempts, recorded under its id, are its spend (an `unknown` row for it is deleted by them too).
   */
  async release(reservationId: string): Promise<void> {
    await this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(`DELETE FROM llm_spend WHERE reservation_id = ? AND outcome = 'unknown'`, [reservationId]);
        await m.query(`DELETE FROM llm_spend_reservations WHERE id = ?`, [reservationId]);
      }, 'immediate'),
    );
  }

  /** What a summary must settle before it counts: expired reservations, and other workers' owners to check. */
  private async abandoned(m: Query, now: number): Promise<{ expired: number; foreignOwners: string[] }> {
    const expired = Number((await m.query(`SELECT COUNT(*) AS n FROM llm_spend_reservations WHERE expires_at <= ?`, [now]))[0].n);
    return { expired, foreignOwners: this.options.liveness ? await this.foreignOwners(m, now) : [] };
  }

  /** Owners of reservations other than this process, except those known alive: their heartbeats are asked. */
  private async foreignOwners(m: Query, now: number): Promise<string[]> {
    const rows = (await m.query(`SELECT DISTINCT owner FROM llm_spend_reservations WHERE owner IS NOT NULL`)) as Array<{ owner: string }>;
    return rows.map((r) => r.owner).filter((o) => o !== this.options.owner && !((this.freshUntil.get(o) ?? 0) > now));
  }

  /**
   * Reads the heartbeats of `owners` (outside any transaction), then settles what is abandoned in one
   * writer transaction. Returns how many reservations it settled.
   */
  private async settle(now: number, expired: boolean, owners: string[]): Promise<number> {
    const dead = owners.length > 0 ? await this.deadOwners(owners, now) : NO_DEAD_OWNERS;
    if (!expired && dead.stale.length === 0 && dead.absent.length === 0) return 0;
    return this.uow.run(({ transaction }) => transaction((m) => this.settleIn(m, now, expired, dead), 'immediate'));
  }

  private async deadOwners(owners: string[], now: number): Promise<DeadOwners> {
    const liveness = this.options.liveness;
    if (!liveness) return NO_DEAD_OWNERS;
    const status = await liveness.status(owners, now);
    const dead: DeadOwners = { stale: [], absent: [], absentBefore: now - liveness.staleMs };
    for (const owner of owners) {
      const s = status.get(owner) ?? { state: 'absent' };
      if (s.state === 'fresh') this.freshUntil.set(owner, s.freshUntil);
      else {
        this.freshUntil.delete(owner);
        dead[s.state].push(owner);
      }
    }
    return dead;
  }

  /**
   * Inside a writer transaction: every abandoned reservation becomes an `unknown` llm_spend row on
   * the reservation's day, at its estimate less what its call already recorded (the estimate is the
   * call's worst case, its recorded attempts part of it), tokens 0 (the columns are NOT NULL; the
   * outcome says they are unknown). Selected and deleted under the writer lock, so two processes
   * settling at once charge each reservation once (and the unique index would refuse a second row).
   */
  private async settleIn(m: Query, now: number, expired: boolean, dead: DeadOwners): Promise<number> {
    const where: string[] = [];
    const params: unknown[] = [];
    if (expired) {
      where.push('expires_at <= ?');
      params.push(now);
    }
    if (dead.stale.length > 0) {
      where.push(`owner IN (${dead.stale.map(() => '?').join(', ')})`);
      params.push(...dead.stale);
    }
    if (dead.absent.length > 0) {
      where.push(`(owner IN (${dead.absent.map(() => '?').join(', ')}) AND reserved_at <= ?)`);
      params.push(...dead.absent, dead.absentBefore);
    }
    if (where.length === 0) return 0;
    const abandoned = (await m.query(`SELECT id, day, estimate_usd, lane, provider, model, effort, job_key FROM llm_spend_reservations WHERE ${where.join(' OR ')}`, params)) as Array<{
      id: string;
      day: string;
      estimate_usd: number;
      lane: string | null;
      provider: string | null;
      model: string | null;
      effort: string | null;
      job_key: string | null;
    }>;
    for (const r of abandoned) {
      const recorded = Number((await m.query(`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_spend WHERE reservation_id = ?`, [r.id]))[0].usd);
      await m.query(
        `INSERT INTO llm_spend (day, recorded_at, lane, provider, model, effort, input_tokens, output_tokens, cost_usd, outcome, job_key, reservation_id)
         VALUES (?, ?, ?, ?, ?, ?, 0, 0, ?, 'unknown', ?, ?)`,
        [r.day, now, r.lane ?? 'unknown', r.provider ?? 'unknown', r.model ?? 'unknown', r.effort ?? 'unknown', Math.max(0, r.estimate_usd - recorded), r.job_key, r.id],
      );
      await m.query(`DELETE FROM llm_spend_reservations WHERE id = ?`, [r.id]);
    }
    return abandoned.length;
  }
}
