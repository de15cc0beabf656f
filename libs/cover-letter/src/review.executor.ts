import { foldReviewPair, type PairDecision } from './review-pair.rules';
import { REVIEW_KINDS, type ReviewError, type ReviewKind, type ReviewOutcome, type ReviewResult } from './review.types';

/**
 * The separate, bounded executor for cover-letter review pairs (factual + quality).
 *
 * Node has no thread per review, so the spec's "threads" are running-leaf permits on the event loop.
 * Each rule below names the spec sentence it implements:
 *
 *  R1 "Its running-leaf limit is the startup activity setting N" — at most `leafLimit` leaves run at
 *     once in this executor instance (one instance per worker process).
 *  R2 "each pair submits exactly two independent reviews and at most N pairs / 2N leaves are
 *     outstanding" — at most N pairs are admitted; an admitted pair enqueues exactly one factual and
 *     one quality leaf, so running + queued leaves never exceed 2N.
 *  R3 "A capacity of one executes a pair sequentially" — leaves take permits FIFO and factual is
 *     enqueued before quality, so with N = 1 quality starts only after factual settled.
 *  R4 "Waiting coordinators continue checking their owner guards; they never consume this executor's
 *     threads" — pairs beyond N wait for admission as plain promises holding no leaf permit, and
 *     their owner signal is still honoured while they wait.
 *  R5 "This is a review bound, not a global provider-call limit ... It does not add Temporal activity
 *     slots or use the local-control reserve" — the executor is purely in-process and knows nothing
 *     about providers, other stages or Temporal slots; it only bounds review leaves.
 *  R6 "Cancellation or a terminal review failure stops queued work and new application-level model
 *     attempts" — the pair's AbortController aborts: queued leaves of the pair are dropped (never
 *     invoked; their outcome is missing) and running leaves see `signal.aborted` and
 *     `canAttempt() === false`. ANY failure (negative verdict, ReviewFailure whether retryable or
 *     not, or a thrown error) stops the pair, because after any failure the pair can no longer
 *     accept and the sibling's model call would be wasted; `error.retryable` is left for the caller
 *     to decide whether to re-run the stage.
 *  R7 "The first failure remains authoritative" — every settled leaf is stamped with an
 *     executor-wide completion sequence and the pair is folded by `foldReviewPair`, which reports
 *     the first failure by that sequence; a sibling that later fails differently is only listed in
 *     `alsoFailed`. `stoppedBy` likewise keeps the first stop reason.
 *  R8 "Already-admitted SDK calls may settle and record usage; their permits remain occupied until
 *     cleanup" — a running leaf keeps its permit until its promise actually settles, even when it
 *     ignores the abort; runPair resolves only once all of the pair's started leaves have settled.
 *     A result returned after the stop is still recorded (it cannot displace the first failure).
 *  R9 "SDK-internal wire retries are outside this admission boundary" — `canAttempt()` gates only
 *     application-level attempts the leaf makes itself; the executor never retries anything.
 *  R10 "No partial pair can accept an artifact" — the decision always comes from `foldReviewPair`
 *     over both kinds, where a missing review never accepts; nothing here bypasses it.
 *  R11 "Worker shutdown stops admission, drains reviews, then closes agent runtimes and flushes
 *     telemetry" — `shutdown()` closes admission (later runPair calls reject with
 *     ReviewExecutorClosedError, waiting pairs resolve `stoppedBy: 'shutdown'`), lets admitted pairs
 *     run to completion, then resolves so the caller can close runtimes and flush telemetry after.
 *
 * Not here, by design: "Each review opens and closes its own connection to the captured runtime
 * database; a mismatch with the process database fails before review model work" is the leaf's
 * duty (the leaf returns a non-retryable ReviewFailure for a mismatch, which R6 then treats as a
 * stop).
 *
 * Leaf settlement is normalised so the fold never sees malformed input:
 *  - a leaf that throws (synchronously or by rejecting) while its pair is still live becomes a
 *    ReviewFailure `{ code: 'review_leaf_threw', retryable: false }`: leaves are expected to return
 *    classified failures themselves, so an unclassified throw is not known to be safe to retry;
 *  - a leaf that throws AFTER its pair was stopped is treated as cancelled (outcome `undefined`,
 *    i.e. missing): that rejection is almost always the abort it was just sent, and recording it as
 *    an error would misreport why the pair stopped;
 *  - a result whose kind does not match the leaf, or that is neither a well-formed verdict nor a
 *    well-formed failure, becomes `{ code: 'review_leaf_malformed', retryable: false }` — it must
 *    never read as a pass.
 */

export interface ReviewLeafContext {
  kind: ReviewKind;
  /**
   * Aborted when the pair is stopped (owner cancellation, a failure of the sibling, or
   * `shutdown({ abort: true })`). Leaves pass it to model calls and must check `canAttempt()` before
   * each new application-level model attempt.
   */
  signal: AbortSignal;
  canAttempt(): boolean;
}

export type ReviewLeaf = (ctx: ReviewLeafContext) => Promise<ReviewResult>;

export interface ReviewPairRequest {
  factual: ReviewLeaf;
  quality: ReviewLeaf;
  /** Owner cancellation, e.g. the activity's cancellation signal. */
  signal?: AbortSignal;
}

export type ReviewPairStopReason = 'cancelled' | 'terminal_failure' | 'shutdown';

export interface ReviewPairOutcome {
  decision: PairDecision;
  /** `[factual, quality]` (REVIEW_KINDS order); `undefined` where the review never reported. */
  outcomes: Array<ReviewOutcome | undefined>;
  /** The FIRST reason the pair was stopped, if it was; absent when both leaves ran undisturbed. */
  stoppedBy?: ReviewPairStopReason;
}

export interface ReviewExecutorOptions {
  /** N: the startup activity setting; an integer >= 1. */
  leafLimit: number;
}

export interface ReviewExecutorShutdownOptions {
  /**
   * Also stop the admitted pairs (as `stoppedBy: 'shutdown'`) instead of letting them run to
   * completion — for a caller whose shutdown grace period ran out. Running leaves still keep their
   * permits until they settle (R8), so the returned promise still waits for them.
   */
  abort?: boolean;
}

export interface ReviewExecutorSnapshot {
  leafLimit: number;
  runningLeaves: number;
  queuedLeaves: number;
  admittedPairs: number;
  waitingPairs: number;
  closed: boolean;
}

export class ReviewExecutorClosedError extends Error {
  readonly code = 'review_executor_closed';

  constructor() {
    super('review executor is shut down: no new review pairs are admitted');
    this.name = 'ReviewExecutorClosedError';
  }
}

type LeafState = 'queued' | 'running' | 'settled' | 'dropped';

interface LeafTask {
  pair: PairRun;
  kind: ReviewKind;
  leaf: ReviewLeaf;
  state: LeafState;
}

type PairPhase = 'waiting' | 'admitted' | 'done';

interface PairRun {
  request: ReviewPairRequest;
  phase: PairPhase;
  controller: AbortController;
  tasks: LeafTask[];
  /** Leaves neither settled nor dropped yet; the pair finishes when this reaches 0. */
  pending: number;
  outcomes: Partial<Record<ReviewKind, ReviewOutcome>>;
  stoppedBy?: ReviewPairStopReason;
  resolve: (outcome: ReviewPairOutcome) => void;
  reject: (error: unknown) => void;
  detachOwner: () => void;
}

type Settlement = { ok: true; value: unknown } | { ok: false; error: unknown };

export class ReviewExecutor {
  private readonly leafLimit: number;
  private readonly admitted = new Set<PairRun>();
  private readonly waiting: PairRun[] = [];
  private readonly leafQueue: LeafTask[] = [];
  private running = 0;
  /** Executor-wide completion counter (R7). */
  private sequence = 0;
  private closed = false;
  private drain?: { promise: Promise<void>; resolve: () => void };

  constructor(options: ReviewExecutorOptions) {
    const n = options?.leafLimit;
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1) {
      throw new RangeError(`ReviewExecutor: leafLimit must be an integer >= 1, got ${String(n)}`);
    }
    this.leafLimit = n;
  }

  runPair(request: ReviewPairRequest): Promise<ReviewPairOutcome> {
    if (this.closed) return Promise.reject(new ReviewExecutorClosedError());
    if (typeof request?.factual !== 'function' || typeof request.quality !== 'function') {
      return Promise.reject(new TypeError('ReviewExecutor.runPair: both a factual and a quality leaf are required'));
    }

    return new Promise<ReviewPairOutcome>((resolve, reject) => {
      const pair: PairRun = {
        request,
        phase: 'waiting',
        controller: new AbortController(),
        tasks: [],
        pending: 0,
        outcomes: {},
        resolve,
        reject,
        detachOwner: () => undefined,
      };

      const owner = request.signal;
      if (owner?.aborted) {
        pair.stoppedBy = 'cancelled';
        this.finish(pair);
        return;
      }
      if (owner) {
        const onAbort = (): void => this.cancel(pair);
        owner.addEventListener('abort', onAbort, { once: true });
        pair.detachOwner = () => owner.removeEventListener('abort', onAbort);
      }

      // FIFO: a newcomer never overtakes a pair already waiting (R4).
      if (this.waiting.length === 0 && this.admitted.size < this.leafLimit) this.admit(pair);
      else this.waiting.push(pair);
    });
  }

  /** Stops admission, then resolves once every admitted pair has settled (R11). Idempotent. */
  shutdown(options: ReviewExecutorShutdownOptions = {}): Promise<void> {
    if (!this.drain) {
      this.closed = true;
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.drain = { promise, resolve };
      for (const pair of this.waiting.splice(0)) {
        pair.stoppedBy = 'shutdown';
        this.finish(pair);
      }
    }
    if (options.abort) {
      for (const pair of [...this.admitted]) this.stop(pair, 'shutdown');
    }
    this.checkDrained();
    return this.drain.promise;
  }

  snapshot(): ReviewExecutorSnapshot {
    return {
      leafLimit: this.leafLimit,
      runningLeaves: this.running,
      queuedLeaves: this.leafQueue.length,
      admittedPairs: this.admitted.size,
      waitingPairs: this.waiting.length,
      closed: this.closed,
    };
  }

  private admit(pair: PairRun): void {
    pair.phase = 'admitted';
    this.admitted.add(pair);
    // Exactly two leaves per pair, factual first (R2, R3).
    for (const kind of REVIEW_KINDS) {
      const task: LeafTask = { pair, kind, leaf: pair.request[kind], state: 'queued' };
      pair.tasks.push(task);
      pair.pending++;
      this.leafQueue.push(task);
    }
    this.pumpLeaves();
  }

  private pumpAdmission(): void {
    while (!this.closed && this.admitted.size < this.leafLimit && this.waiting.length > 0) {
      this.admit(this.waiting.shift() as PairRun);
    }
  }

  private pumpLeaves(): void {
    // Counters are updated before a leaf is invoked, so a leaf re-entering the executor
    // synchronously (e.g. aborting its owner signal) sees a consistent state.
    while (this.running < this.leafLimit && this.leafQueue.length > 0) {
      this.startLeaf(this.leafQueue.shift() as LeafTask);
    }
  }

  private startLeaf(task: LeafTask): void {
    const { pair } = task;
    task.state = 'running';
    this.running++;
    const signal = pair.controller.signal;
    const ctx: ReviewLeafContext = { kind: task.kind, signal, canAttempt: () => !signal.aborted };

    let settled: Promise<unknown>;
    try {
      settled = Promise.resolve(task.leaf(ctx));
    } catch (error) {
      // A synchronous throw must release its permit like a rejection does (spec test 10).
      settled = Promise.reject(error);
    }
    settled.then(
      (value) => this.settleLeaf(task, { ok: true, value }),
      (error: unknown) => this.settleLeaf(task, { ok: false, error }),
    );
  }

  private settleLeaf(task: LeafTask, settlement: Settlement): void {
    const { pair } = task;
    // Release first: whatever happens below, the permit must not leak (R8 — held until now).
    task.state = 'settled';
    this.running--;
    pair.pending--;
    try {
      const result = this.toResult(task, settlement);
      if (result) {
        // Stamped in completion order, executor-wide, so the fold's "first failure" is real (R7).
        pair.outcomes[task.kind] = { ...result, sequence: ++this.sequence };
        if ('error' in result || !result.passed) this.stop(pair, 'terminal_failure');
      }
    } finally {
      this.maybeFinish(pair);
      this.pumpLeaves();
    }
  }

  private toResult(task: LeafTask, settlement: Settlement): ReviewResult | undefined {
    if (!settlement.ok) {
      if (task.pair.controller.signal.aborted) return undefined; // cancelled, i.e. missing (see header)
      return { kind: task.kind, error: { code: 'review_leaf_threw', message: describe(settlement.error), retryable: false } };
    }
    return normalise(task.kind, settlement.value);
  }

  private cancel(pair: PairRun): void {
    if (pair.phase === 'waiting') {
      // A waiting coordinator honours its owner guard without ever holding a permit (R4).
      const index = this.waiting.indexOf(pair);
      if (index >= 0) this.waiting.splice(index, 1);
      pair.stoppedBy = 'cancelled';
      this.finish(pair);
    } else if (pair.phase === 'admitted') {
      this.stop(pair, 'cancelled');
    }
  }

  /** R6: drop the pair's queued leaves and signal its running ones. The first reason sticks (R7). */
  private stop(pair: PairRun, reason: ReviewPairStopReason): void {
    pair.stoppedBy ??= reason;
    for (const task of pair.tasks) {
      if (task.state !== 'queued') continue;
      task.state = 'dropped';
      pair.pending--;
      const index = this.leafQueue.indexOf(task);
      if (index >= 0) this.leafQueue.splice(index, 1);
    }
    if (!pair.controller.signal.aborted) {
      const abort = new Error(`review pair stopped: ${reason}`);
      abort.name = 'AbortError';
      pair.controller.abort(abort);
    }
    this.maybeFinish(pair);
  }

  private maybeFinish(pair: PairRun): void {
    if (pair.phase === 'admitted' && pair.pending === 0) this.finish(pair);
  }

  private finish(pair: PairRun): void {
    if (pair.phase === 'done') return;
    const wasAdmitted = pair.phase === 'admitted';
    pair.phase = 'done';
    pair.detachOwner();
    if (wasAdmitted) this.admitted.delete(pair);

    const outcomes = REVIEW_KINDS.map((kind) => pair.outcomes[kind]);
    try {
      // R10: the fold is the only place acceptance is decided.
      const result: ReviewPairOutcome = { decision: foldReviewPair(outcomes), outcomes };
      if (pair.stoppedBy) result.stoppedBy = pair.stoppedBy;
      pair.resolve(result);
    } catch (error) {
      pair.reject(error);
    }

    if (wasAdmitted) {
      this.pumpAdmission();
      this.checkDrained();
    }
  }

  private checkDrained(): void {
    if (this.drain && this.admitted.size === 0) this.drain.resolve();
  }
}

function normalise(kind: ReviewKind, value: unknown): ReviewResult {
  const malformed = (why: string): ReviewResult => ({
    kind,
    error: { code: 'review_leaf_malformed', message: `${kind} review returned ${why}`, retryable: false },
  });
  if (typeof value !== 'object' || value === null) return malformed('no result object');
  const record = value as Record<string, unknown>;
  if (record['kind'] !== kind) return malformed(`a result of kind "${String(record['kind'])}"`);

  if ('error' in record) {
    const error = record['error'];
    if (typeof error !== 'object' || error === null) return malformed('a failure without an error object');
    const e = error as Record<string, unknown>;
    if (typeof e['code'] !== 'string' || typeof e['message'] !== 'string' || typeof e['retryable'] !== 'boolean') {
      return malformed('a failure with a malformed error');
    }
    const reviewError: ReviewError = { code: e['code'], message: e['message'], retryable: e['retryable'] };
    return { kind, error: reviewError };
  }

  const issues = record['issues'];
  if (typeof record['passed'] !== 'boolean') return malformed('a verdict without a boolean "passed"');
  if (!Array.isArray(issues) || !issues.every((i): i is string => typeof i === 'string')) {
    return malformed('a verdict with malformed issues');
  }
  return { kind, passed: record['passed'], issues: [...issues] };
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  return String(error);
}
