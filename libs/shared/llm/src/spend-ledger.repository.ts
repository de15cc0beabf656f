import { randomUUID } from 'node:crypto';
import type { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { SPEND_LANES, type LlmUsage, type SpendLane } from './llm.types';

/** Today's spend, by lane, against the ceiling. */
export interface SpendSummary {
  day: string;
  totalUsd: number;
  byLane: Record<SpendLane, number>;
  calls: number;
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

/** A reservation older than this is a crashed caller's and no longer holds budget. */
export const RESERVATION_TTL_MS = 10 * 60_000;

/**
 * The spend ledger: one row per model attempt that consumed tokens, plus reservations for admitted
 * calls still in flight. Admission and recording both take the writer reservation, so concurrent
 * callers (in this or another worker process) see each other's reservations.
 */
export class SpendLedgerRepository {
  constructor(private readonly uow: UnitOfWorkFactory) {}

  async record(usage: LlmUsage, context: { jobKey?: string } = {}, now = Date.now()): Promise<void> {
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
        await this.insert(m, usage, context, now);
        await m.query(`DELETE FROM llm_spend_reservations WHERE id = ?`, [reservationId]);
      }, 'immediate'),
    );
  }

  private async insert(m: { query(sql: string, params?: unknown[]): Promise<unknown> }, usage: LlmUsage, context: { jobKey?: string }, now: number): Promise<void> {
    await m.query(
      `INSERT INTO llm_spend (day, recorded_at, lane, provider, model, effort, input_tokens, output_tokens, cost_usd, outcome, job_key)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [spendDay(now), now, usage.lane, usage.provider, usage.model, usage.effort, usage.inputTokens, usage.outputTokens, usage.costUsd, usage.outcome, context.jobKey ?? null],
    );
  }

  async summary(day = spendDay()): Promise<SpendSummary> {
    const rows: Array<{ lane: SpendLane; usd: number; calls: number }> = await this.uow.run(({ manager }) =>
      manager.query(`SELECT lane, SUM(cost_usd) AS usd, COUNT(*) AS calls FROM llm_spend WHERE day = ? GROUP BY lane`, [day]),
    );
    const byLane = Object.fromEntries(SPEND_LANES.map((lane) => [lane, 0])) as Record<SpendLane, number>;
    let totalUsd = 0;
    let calls = 0;
    for (const r of rows) {
      byLane[r.lane] = (byLane[r.lane] ?? 0) + r.usd;
      totalUsd += r.usd;
      calls += r.calls;
    }
    return { day, totalUsd, byLane, calls };
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
   */
  async reserve(estimateUsd: number, ceilingUsd: number, now = Date.now()): Promise<SpendAdmission> {
    const day = spendDay(now);
    return this.uow.run(({ transaction }) =>
      transaction(async (m) => {
        await m.query(`DELETE FROM llm_spend_reservations WHERE expires_at <= ?`, [now]);
        const spent = ((await m.query(`SELECT COALESCE(SUM(cost_usd), 0) AS usd FROM llm_spend WHERE day = ?`, [day]))[0].usd as number) ?? 0;
        if (spent >= ceilingUsd) return { kind: 'refused', spentUsd: spent } as const;
        const reserved = (await m.query(`SELECT COALESCE(SUM(estimate_usd), 0) AS usd, COUNT(*) AS n FROM llm_spend_reservations WHERE day = ?`, [day]))[0] as { usd: number; n: number };
        const fits = spent + reserved.usd + estimateUsd <= ceilingUsd;
        if (!fits && reserved.n > 0) return { kind: 'wait', spentUsd: spent } as const;
        const id = randomUUID();
        await m.query(`INSERT INTO llm_spend_reservations (id, day, estimate_usd, expires_at) VALUES (?, ?, ?, ?)`, [id, day, estimateUsd, now + RESERVATION_TTL_MS]);
        return { kind: 'admitted', reservationId: id, spentUsd: spent } as const;
      }, 'immediate'),
    );
  }

  async release(reservationId: string): Promise<void> {
    await this.uow.run(({ transaction }) => transaction((m) => m.query(`DELETE FROM llm_spend_reservations WHERE id = ?`, [reservationId]), 'immediate'));
  }
}
