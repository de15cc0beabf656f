import { Injectable } from '@nestjs/common';

/**
 * Pipeline stages report how much work they have left (read from SQLite, e.g. jobs pending scoring)
 * so the ETA can divide domain work — not queue length — by observed throughput. OperationsModule
 * registers the discovery and preparation providers (remaining-work.providers.ts); with none
 * registered the ETA refuses rather than guess.
 */
export interface RemainingWorkProvider {
  stage: string;
  /** Remote activity executions still needed (the unit the observed throughput counts). */
  remaining(): Promise<number>;
}

@Injectable()
export class RemainingWorkRegistry {
  private readonly providers = new Map<string, RemainingWorkProvider>();

  register(provider: RemainingWorkProvider): void {
    this.providers.set(provider.stage, provider);
  }

  /** Total remaining work and per-stage counts; null total when no stage reports. */
  async remaining(): Promise<{ total: number | null; byStage: Record<string, number> }> {
    if (this.providers.size === 0) return { total: null, byStage: {} };
    const entries = await Promise.all([...this.providers.values()].map(async (p) => [p.stage, await p.remaining()] as const));
    return { total: entries.reduce((t, [, n]) => t + n, 0), byStage: Object.fromEntries(entries) };
  }
}
