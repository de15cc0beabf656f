import { LlmError } from './llm.errors';
import type { Effort, LlmClient, LlmUsage, StructuredRequest, StructuredResult } from './llm.types';
import type { ReservedCall, SpendLedgerRepository } from './spend-ledger.repository';

/** Raised before a model call when today's spend has reached the daily ceiling. */
export class SpendCeilingReachedError extends Error {
  readonly code = 'spend_ceiling_reached';
  constructor(readonly ceilingUsd: number) {
    super(`today's LLM spend reached the daily ceiling of $${ceilingUsd.toFixed(2)} (daily_spend_ceiling_usd)`);
    this.name = 'SpendCeilingReachedError';
  }
}

/**
 * Who is making the calls. The gate knows nothing of Temporal: an activity passes its cancellation
 * signal and a heartbeat as `onWait`, so an admission that waits behind in-flight calls keeps the
 * activity alive and still hears a cancel.
 */
export interface SpendGateCaller {
  /** Cancels every call of this client (besides each request's own signal), its admission wait included. */
  signal?: AbortSignal;
  /** Called on every admission poll while the call waits for in-flight calls to settle. */
  onWait?: () => void;
  /**
   * Written on each call's reservation, so a call whose worker dies mid-call is charged to its job
   * (and named with the effort the client will use when the request does not say).
   */
  jobKey?: string;
  effort?: Effort;
}

/**
 * The caller side of an activity's model calls: cancelled with the activity, heartbeating while an
 * admission waits. Takes the activity context structurally, so this lib needs no Temporal activity
 * import: `clientFor({ jobKey, ...activityCaller(Context.current()) })`.
 */
export function activityCaller(activity: { cancellationSignal: AbortSignal; heartbeat(details?: unknown): void }): Required<Pick<SpendGateCaller, 'signal' | 'onWait'>> {
  return { signal: activity.cancellationSignal, onWait: () => activity.heartbeat() };
}

/**
 * Wraps a client so each generate() is admitted against the daily ceiling first: the workflow's
 * checkSpendBudget preflight makes the pause visible, and this gate makes it exact — concurrent
 * stages that all passed the preflight still cannot all spend, because each reserves its worst-case
 * cost (the call plus its one repair retry) before the request leaves. The reservation is released
 * once the call settles; by then the client has charged every attempt that reached the server
 * (unanswered ones at their worst case), so releasing never drops spend from the ledger.
 */
export function withSpendGate(inner: LlmClient | ((held: HeldReservation) => LlmClient), ledger: SpendLedgerRepository, ceilingUsd: () => number, caller: SpendGateCaller = {}): LlmClient {
  const clientFor = typeof inner === 'function' ? inner : () => inner;
  const meta = clientFor({});
  const label = `${meta.provider} ${meta.model}`;
  return {
    provider: meta.provider,
    model: meta.model,
    estimateCostUsd: (request) => meta.estimateCostUsd(request),
    async generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      const signal = eitherSignal(request.signal, caller.signal);
      const call: ReservedCall = { lane: request.lane, provider: meta.provider, model: meta.model, effort: request.effort ?? caller.effort, jobKey: caller.jobKey };
      const held: HeldReservation = { id: await admit(ledger, ceilingUsd, 2 * meta.estimateCostUsd(request), call, label, signal, caller.onWait) };
      try {
        return await clientFor(held).generate(signal ? { ...request, signal } : request);
      } finally {
        // Unless the client's usage sink already released it with the call's last record.
        if (held.id) await ledger.release(held.id);
      }
    },
  };
}

/**
 * One call's reservation, shared by the gate and the client it built for that call: a usage sink
 * that releases it with the call's last record (recordUsage) clears `id`, and the gate then has
 * nothing left to release.
 */
export interface HeldReservation {
  id?: string;
}

/**
 * The usage sink of a gated client: every attempt is recorded at once, as it settles. The last one —
 * an answer that was used (`ok`), or a failure that ends the call (`unanswered`, `http_error`): the
 * structured call returns or throws right after recording those — also releases the call's
 * reservation in the same transaction. Only `invalid_output` may be followed by a repair attempt
 * under the same reservation, so it is recorded alone (and a final one is released by the gate).
 */
export async function recordUsage(ledger: SpendLedgerRepository, usage: LlmUsage, context: { jobKey?: string }, held: HeldReservation): Promise<void> {
  const id = held.id;
  // Recorded under the reservation's id: if the call was meanwhile settled as `unknown` (its worker
  // looked dead), this real usage replaces the estimate instead of adding to it.
  if (!id || usage.outcome === 'invalid_output') return ledger.record(usage, { ...context, reservationId: id });
  await ledger.recordAndRelease(usage, context, id);
  held.id = undefined;
}

/** How often a call that must wait for in-flight calls asks again. */
const ADMISSION_POLL_MS = 200;

async function admit(
  ledger: SpendLedgerRepository,
  ceilingUsd: () => number,
  estimateUsd: number,
  call: ReservedCall,
  label: string,
  signal: AbortSignal | undefined,
  onWait: (() => void) | undefined,
): Promise<string> {
  for (;;) {
    // A cancelled wait is a cancellation, not a spend refusal: the caller must not read "the ceiling
    // was reached" (and pause the job) when it was only told to stop.
    if (signal?.aborted) throw cancelledWhileWaiting(label, signal.reason);
    const ceiling = ceilingUsd();
    const admission = await ledger.reserve(estimateUsd, ceiling, Date.now(), call);
    if (admission.kind === 'admitted') return admission.reservationId;
    if (admission.kind === 'refused') throw new SpendCeilingReachedError(ceiling);
    onWait?.();
    await sleep(ADMISSION_POLL_MS, signal);
  }
}

/** The same error the transport throws for an aborted request, so callers handle one shape. */
function cancelledWhileWaiting(label: string, reason: unknown): LlmError {
  return new LlmError('llm_cancelled', `${label}: request cancelled while waiting for spend admission`, { cause: reason });
}

/** Resolves after `ms`, or as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

function eitherSignal(a: AbortSignal | undefined, b: AbortSignal | undefined): AbortSignal | undefined {
  if (!a || !b) return a ?? b;
  return AbortSignal.any([a, b]);
}
