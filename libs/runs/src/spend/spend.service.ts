import { Inject, Injectable } from '@nestjs/common';
import { SettingsService } from '@jobctrl/shared/config';
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
  calls: number;
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
  ) {
    this.ledger = new SpendLedgerRepository(uow);
  }

  async today(now = Date.now()): Promise<SpendView> {
    const doc = this.settings.get();
    const llm = doc['llm'] as { provider: string; model?: string | null };
    const ceilingUsd = Number(doc['daily_spend_ceiling_usd']);
    const summary = await this.ledger.summary();
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
      provider: llm.provider,
      model: llm.model ?? null,
    };
  }
}
