import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import { createLlmClient } from './llm-client.factory';
import { isLlmError, toActivityFailure } from './llm.errors';
import type { Effort, LlmClient, ModelProviderName, PriceTable } from './llm.types';
import { recordUsage, withSpendGate, SpendCeilingReachedError, type HeldReservation, type SpendGateCaller } from './spend-gate';
import type { SpendLedgerRepository } from './spend-ledger.repository';

export interface LlmRuntimeOptions {
  provider: 'extractive' | ModelProviderName;
  model?: string;
  baseUrl?: string;
  /** The key itself, read from the environment variable named by llm.api_key_env by the caller. */
  apiKey?: string;
  prices: PriceTable;
  timeoutMs: number;
  effort?: Effort;
  ledger: SpendLedgerRepository;
  /** Read on every admission, so a raised ceiling applies without a restart. */
  ceilingUsd: () => number;
}

/**
 * The worker's model runtime: which provider the spendful stages use, and for a network provider a
 * client per unit of work whose every attempt is charged to the spend ledger (with the job it was
 * for) and admitted against the daily ceiling first. `extractive` has no client: stages run their
 * extractive rules, which cost nothing.
 */
export class LlmRuntime {
  constructor(private readonly options: LlmRuntimeOptions) {}

  get provider(): LlmRuntimeOptions['provider'] {
    return this.options.provider;
  }

  get model(): string {
    return this.options.provider === 'extractive' ? 'extractive' : (this.options.model ?? '');
  }

  /**
   * null for the extractive provider. `signal` and `onWait` (see SpendGateCaller) come from the
   * calling activity: its cancellation and its heartbeat while the call waits for admission.
   */
  clientFor(context: { jobKey?: string } & SpendGateCaller): LlmClient | null {
    const o = this.options;
    if (o.provider === 'extractive') return null;
    const provider = o.provider;
    // A client per call (cheap: no connection of its own), so its usage sink knows that call's
    // reservation and releases it with the call's last record: one writer transaction, not two.
    const inner = (held: HeldReservation) =>
      createLlmClient({
        provider,
        model: o.model ?? '',
        ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
        ...(o.apiKey ? { apiKey: o.apiKey } : {}),
        prices: o.prices,
        timeoutMs: o.timeoutMs,
        ...(o.effort ? { defaultEffort: o.effort } : {}),
        onUsage: (usage) => recordUsage(o.ledger, usage, { jobKey: context.jobKey }, held),
      });
    return withSpendGate(inner, o.ledger, o.ceilingUsd, { signal: context.signal, onWait: context.onWait, jobKey: context.jobKey, effort: o.effort });
  }
}

/**
 * Maps a spendful step's error to the activity failure the retry policies expect: the spend
 * ceiling and provider errors keep their taxonomy type; anything else is rethrown as is.
 */
export function toSpendfulFailure(err: unknown): unknown {
  // A call stopped by the activity's own cancel reports the cancel itself, so Temporal records the
  // activity as cancelled rather than failed.
  if (err instanceof CancelledFailure) return err;
  if (isLlmError(err) && err.code === 'llm_cancelled' && err.cause instanceof CancelledFailure) return err.cause;
  if (err instanceof SpendCeilingReachedError) {
    return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: true });
  }
  if (err instanceof ApplicationFailure) return err;
  if (isLlmError(err)) return toActivityFailure(err);
  // Domain errors that declare themselves final (job_not_found, ...) keep their taxonomy code.
  if (isFinalDomainError(err)) return ApplicationFailure.create({ message: err.message, type: err.code, nonRetryable: true });
  return err;
}

/** An error a retry cannot fix, with its taxonomy code (e.g. JobNotFoundError in shared/jobs). */
export interface FinalDomainError extends Error {
  code: string;
  nonRetryable: true;
}

function isFinalDomainError(err: unknown): err is FinalDomainError {
  return err instanceof Error && typeof (err as Partial<FinalDomainError>).code === 'string' && (err as Partial<FinalDomainError>).nonRetryable === true;
}
