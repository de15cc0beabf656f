import type { LlmClient, StructuredRequest, StructuredResult } from './llm.types';
import type { SpendLedgerRepository } from './spend-ledger.repository';

/** Raised before a model call when today's spend has reached the daily ceiling. */
export class SpendCeilingReachedError extends Error {
  readonly code = 'spend_ceiling_reached';
  constructor(readonly ceilingUsd: number) {
    super(`today's LLM spend reached the daily ceiling of $${ceilingUsd.toFixed(2)} (daily_spend_ceiling_usd)`);
    this.name = 'SpendCeilingReachedError';
  }
}

/**
 * Wraps a client so each generate() is admitted against the daily ceiling first: the workflow's
 * checkSpendBudget preflight makes the pause visible, and this gate makes it exact — concurrent
 * stages that all passed the preflight still cannot all spend, because each reserves its worst-case
 * cost (the call plus its one repair retry) before the request leaves.
 */
export function withSpendGate(inner: LlmClient, ledger: SpendLedgerRepository, ceilingUsd: () => number): LlmClient {
  return {
    provider: inner.provider,
    model: inner.model,
    estimateCostUsd: (request) => inner.estimateCostUsd(request),
    async generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const reservation = await admit(ledger, ceilingUsd, 2 * inner.estimateCostUsd(request), request.signal);
      try {
        return await inner.generate(request);
      } finally {
        await ledger.release(reservation);
      }
    },
  };
}

/** How often a call that must wait for in-flight calls asks again. */
const ADMISSION_POLL_MS = 200;

async function admit(ledger: SpendLedgerRepository, ceilingUsd: () => number, estimateUsd: number, signal?: AbortSignal): Promise<string> {
  for (;;) {
    const ceiling = ceilingUsd();
    const admission = await ledger.reserve(estimateUsd, ceiling);
    if (admission.kind === 'admitted') return admission.reservationId;
    if (admission.kind === 'refused') throw new SpendCeilingReachedError(ceiling);
    if (signal?.aborted) throw new SpendCeilingReachedError(ceiling);
    await new Promise((resolve) => setTimeout(resolve, ADMISSION_POLL_MS));
  }
}
