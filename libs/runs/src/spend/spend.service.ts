import { Inject, Injectable } from '@nestjs/common';
import { heartbeatLiveness, WorkerHeartbeatRepository } from '@jobctrl/operations';
import { JOBCTRL_CONFIG, SettingsService, type ResolvedConfig } from '@jobctrl/shared/config';
import { UnitOfWorkFactory } from '@jobctrl/shared/db';
import { msUntilNextSpendDay, spendCeilingReached, SpendLedgerRepository, type SpendLane } from '@jobctrl/shared/llm';

export interface SpendView {
  day: string;
  spentUsd: number;
  ceilingUsd: number;
  remainingUsd: number;
  /** Spendful work is paused until the ceiling is raised or the day rolls over. */
  ceilingReached: boolean;
  resetsAt: string;
  byLane: Record<SpendLane, number>;
  /** Every recorded call, those with an unknown outcome included. */
  calls: number;
  /**
   * Calls whose outcome is unknown: their worker died mid-call (kill -9, crash; its heartbeat went
   * stale or the reservation expired), so the provider may have billed them. They are spend: each is
   * charged at its admission estimate (the call and one repair) in spentUsd, byLane and calls.
   */
  unknownOutcomeCalls: number;
  /** What those calls are charged at, part of spentUsd. */
  unknownOutcomeUsd: number;
  provider: string;
  model: string | null;
}

/** GET /v1/spend: today's spend against the ceiling (read live from config.json), by lane. */
@Injectable()
export class SpendService {
  private readonly ledger: SpendLedgerRepository;

  constructor(
    uow: UnitOfWorkFactory,
    @Inject(SettingsService) private readonly settings: SettingsService,
    @Inject(JOBCTRL_CONFIG) config: ResolvedConfig,
  ) {
    // Reading today's spend settles a dead worker's in-flight calls (its heartbeat stale by the
    // readiness rule), so the figure is never low after a crash, even before a worker runs again.
    this.ledger = new SpendLedgerRepository(uow, { liveness: heartbeatLiveness(new WorkerHeartbeatRepository(uow), config.heartbeat.staleMs) });
  }

  async today(now = Date.now()): Promise<SpendView> {
    const doc = this.settings.get();
    const llm = doc['llm'] as { provider: string; model?: string | null };
    const ceilingUsd = Number(doc['daily_spend_ceiling_usd']);
    const summary = await this.ledger.summary(undefined, now);
    const round = (usd: number) => Math.round(usd * 1e6) / 1e6;
    return {
      day: summary.day,
      spentUsd: round(summary.totalUsd),
      ceilingUsd,
      remainingUsd: round(Math.max(0, ceilingUsd - summary.totalUsd)),
      ceilingReached: spendCeilingReached(llm.provider, summary.totalUsd, ceilingUsd),
      resetsAt: new Date(now + msUntilNextSpendDay(now)).toISOString(),
      byLane: Object.fromEntries(Object.entries(summary.byLane).map(([lane, usd]) => [lane, round(usd)])) as Record<SpendLane, number>,
      calls: summary.calls,
      unknownOutcomeCalls: summary.unknownOutcomeCalls,
      unknownOutcomeUsd: round(summary.unknownOutcomeUsd),
      provider: llm.provider,
      model: llm.model ?? null,
    };
  }
}
