import {
  ReviewExecutor,
  ReviewExecutorClosedError,
  type ReviewLeaf,
  type ReviewLeafContext,
  type ReviewPairOutcome,
  type ReviewPairRequest,
} from './review.executor';
import type { ReviewKind, ReviewResult } from './review.types';

// Leaves are controlled by hand: each invocation is recorded with a deferred the test settles.
// `flush` waits for every pending microtask (setImmediate runs after them), not for wall time.
const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const pass = (kind: ReviewKind, issues: string[] = []): ReviewResult => ({ kind, passed: true, issues });
const reject = (kind: ReviewKind, issues: string[]): ReviewResult => ({ kind, passed: false, issues });
const failure = (kind: ReviewKind, code: string, retryable: boolean): ReviewResult => ({
  kind,
  error: { code, message: `${kind} ${code}`, retryable },
});
const abortError = (): Error => Object.assign(new Error('aborted'), { name: 'AbortError' });

interface Call {
  pair: string;
  kind: ReviewKind;
  ctx: ReviewLeafContext;
  resolve(result: ReviewResult): void;
  reject(error: unknown): void;
  settled: boolean;
}

class Harness {
  readonly calls: Call[] = [];
  running = 0;
  peak = 0;

  /** A pair of controllable leaves labelled `pair`. */
  pair(pair: string, signal?: AbortSignal): ReviewPairRequest {
    return { factual: this.leaf(pair, 'factual'), quality: this.leaf(pair, 'quality'), signal };
  }

  leaf(pair: string, kind: ReviewKind): ReviewLeaf {
    return (ctx) =>
      new Promise<ReviewResult>((resolve, reject) => {
        this.running++;
        this.peak = Math.max(this.peak, this.running);
        const call: Call = {
          pair,
          kind,
          ctx,
          settled: false,
          resolve: (result) => this.settle(call, () => resolve(result)),
          reject: (error) => this.settle(call, () => reject(error)),
        };
        this.calls.push(call);
      });
  }

  call(pair: string, kind: ReviewKind): Call {
    const found = this.calls.find((c) => c.pair === pair && c.kind === kind);
    if (!found) throw new Error(`${pair}/${kind} was never invoked`);
    return found;
  }

  invoked(pair: string, kind?: ReviewKind): boolean {
    return this.calls.some((c) => c.pair === pair && (kind === undefined || c.kind === kind));
  }

  runningCalls(): Call[] {
    return this.calls.filter((c) => !c.settled);
  }

  private settle(call: Call, settle: () => void): void {
    if (call.settled) throw new Error(`${call.pair}/${call.kind} settled twice`);
    call.settled = true;
    this.running--;
    settle();
  }
}

/** Tracks whether a runPair promise has resolved yet, without awaiting it. */
function track(promise: Promise<ReviewPairOutcome>): { done: () => boolean; result: () => ReviewPairOutcome } {
  let value: ReviewPairOutcome | undefined;
  void promise.then((v) => (value = v));
  return {
    done: () => value !== undefined,
    result: () => {
      if (!value) throw new Error('pair has not resolved');
      return value;
    },
  };
}

describe('ReviewExecutor', () => {
  it('1. never runs more than N leaves, admits more than N pairs, or holds more than 2N leaves outstanding', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 2 });
    const pairs = ['a', 'b', 'c', 'd', 'e'].map((id) => executor.runPair(h.pair(id)));
    const check = (): void => {
      const s = executor.snapshot();
      expect(s.runningLeaves).toBeLessThanOrEqual(2);
      expect(s.admittedPairs).toBeLessThanOrEqual(2);
      expect(s.runningLeaves + s.queuedLeaves).toBeLessThanOrEqual(4);
      expect(h.running).toBeLessThanOrEqual(2);
    };

    await flush();
    expect(executor.snapshot()).toEqual({ leafLimit: 2, runningLeaves: 2, queuedLeaves: 2, admittedPairs: 2, waitingPairs: 3, closed: false });
    // Settle the oldest running leaf each round, so completion order interleaves pairs.
    while (h.runningCalls().length > 0) {
      check();
      const [oldest] = h.runningCalls();
      oldest.resolve(pass(oldest.kind));
      await flush();
    }
    check();

    const results = await Promise.all(pairs);
    expect(h.peak).toBe(2);
    expect(results.every((r) => r.decision.accepted)).toBe(true);
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 0, queuedLeaves: 0, admittedPairs: 0, waitingPairs: 0 });
    // Sequence numbers are executor-wide and strictly increasing in completion order.
    const sequences = results.flatMap((r) => r.outcomes.map((o) => o?.sequence ?? NaN)).sort((x, y) => x - y);
    expect(sequences).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('2. each pair submits exactly one factual and one quality leaf', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 3 });
    const pairs = ['a', 'b', 'c'].map((id) => executor.runPair(h.pair(id)));
    await flush();
    while (h.runningCalls().length > 0) {
      for (const call of h.runningCalls()) call.resolve(pass(call.kind));
      await flush();
    }
    await Promise.all(pairs);

    for (const id of ['a', 'b', 'c']) {
      const kinds = h.calls.filter((c) => c.pair === id).map((c) => c.kind);
      expect(kinds.sort()).toEqual(['factual', 'quality']);
    }
    expect(h.calls).toHaveLength(6);
  });

  it('3. with N = 1 a pair runs sequentially: quality starts only after factual settled', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 1 });
    const pair = executor.runPair(h.pair('a'));
    await flush();
    expect(h.calls.map((c) => c.kind)).toEqual(['factual']);
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 1, queuedLeaves: 1 });

    h.call('a', 'factual').resolve(pass('factual'));
    expect(h.invoked('a', 'quality')).toBe(false);
    await flush();
    expect(h.calls.map((c) => c.kind)).toEqual(['factual', 'quality']);
    expect(h.call('a', 'factual').settled).toBe(true);

    h.call('a', 'quality').resolve(pass('quality'));
    expect((await pair).decision.accepted).toBe(true);
    expect(h.peak).toBe(1);
  });

  it('4. waiting pairs hold no permit and start only after an admitted pair fully settles', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 1 });
    const first = executor.runPair(h.pair('a'));
    const second = track(executor.runPair(h.pair('b')));
    await flush();
    expect(executor.snapshot()).toEqual({ leafLimit: 1, runningLeaves: 1, queuedLeaves: 1, admittedPairs: 1, waitingPairs: 1, closed: false });

    h.call('a', 'factual').resolve(pass('factual'));
    await flush();
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 1, queuedLeaves: 0, waitingPairs: 1 });
    expect(h.invoked('b')).toBe(false);

    h.call('a', 'quality').resolve(pass('quality'));
    await first;
    await flush();
    expect(h.calls.map((c) => `${c.pair}/${c.kind}`)).toEqual(['a/factual', 'a/quality', 'b/factual']);
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 1, queuedLeaves: 1, admittedPairs: 1, waitingPairs: 0 });

    h.call('b', 'factual').resolve(pass('factual'));
    await flush();
    h.call('b', 'quality').resolve(pass('quality'));
    await flush();
    expect(second.result().decision.accepted).toBe(true);
  });

  describe('5. owner cancellation', () => {
    it('drops the queued sibling, signals the running leaf, and resolves only after it settles', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const owner = new AbortController();
      const pair = track(executor.runPair(h.pair('a', owner.signal)));
      await flush();
      const factual = h.call('a', 'factual');
      expect(factual.ctx.canAttempt()).toBe(true);

      owner.abort();
      expect(factual.ctx.signal.aborted).toBe(true);
      expect(factual.ctx.canAttempt()).toBe(false);
      expect(executor.snapshot()).toMatchObject({ runningLeaves: 1, queuedLeaves: 0 });
      await flush();
      expect(pair.done()).toBe(false); // the running leaf still holds its permit

      factual.reject(abortError());
      await flush();
      expect(h.invoked('a', 'quality')).toBe(false);
      // A leaf that rejects after the stop was cancelled: missing, not an error.
      expect(pair.result()).toEqual({
        decision: { accepted: false, outcome: 'incomplete', missing: ['factual', 'quality'] },
        outcomes: [undefined, undefined],
        stoppedBy: 'cancelled',
      });
      expect(executor.snapshot()).toMatchObject({ runningLeaves: 0, admittedPairs: 0 });
    });

    it('removes a waiting pair from admission without ever running it', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const first = executor.runPair(h.pair('a'));
      const owner = new AbortController();
      const waiting = executor.runPair(h.pair('b', owner.signal));
      await flush();
      expect(executor.snapshot().waitingPairs).toBe(1);

      owner.abort();
      expect(await waiting).toEqual({
        decision: { accepted: false, outcome: 'incomplete', missing: ['factual', 'quality'] },
        outcomes: [undefined, undefined],
        stoppedBy: 'cancelled',
      });
      expect(executor.snapshot().waitingPairs).toBe(0);

      h.call('a', 'factual').resolve(pass('factual'));
      await flush();
      h.call('a', 'quality').resolve(pass('quality'));
      await first;
      await flush();
      expect(h.invoked('b')).toBe(false);
    });

    it('never runs a pair whose owner was already cancelled', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const result = await executor.runPair(h.pair('a', AbortSignal.abort()));
      expect(result).toMatchObject({ decision: { outcome: 'incomplete' }, stoppedBy: 'cancelled' });
      expect(h.calls).toHaveLength(0);
    });
  });

  describe('6. a failure stops the pair and the first failure stays authoritative', () => {
    it('a negative verdict stops the queued sibling (it never starts)', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const pair = executor.runPair(h.pair('a'));
      await flush();
      h.call('a', 'factual').resolve(reject('factual', ['invented employer']));
      const result = await pair;
      expect(h.invoked('a', 'quality')).toBe(false);
      expect(result.stoppedBy).toBe('terminal_failure');
      expect(result.outcomes[1]).toBeUndefined();
      expect(result.decision).toEqual({
        accepted: false,
        outcome: 'rejected',
        by: 'factual',
        issues: ['invented employer'],
        alsoFailed: [],
        missing: ['quality'],
      });
    });

    it('a non-retryable failure signals the running sibling; its later, different failure does not take over', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 2 });
      const pair = track(executor.runPair(h.pair('a')));
      await flush();
      const factual = h.call('a', 'factual');

      h.call('a', 'quality').resolve(failure('quality', 'policy_refusal', false));
      await flush();
      expect(factual.ctx.signal.aborted).toBe(true);
      expect(factual.ctx.canAttempt()).toBe(false);
      expect(pair.done()).toBe(false);

      factual.resolve(reject('factual', ['unsupported claim']));
      await flush();
      expect(pair.result().stoppedBy).toBe('terminal_failure');
      expect(pair.result().decision).toEqual({
        accepted: false,
        outcome: 'errored',
        by: 'quality',
        error: { code: 'policy_refusal', message: 'quality policy_refusal', retryable: false },
        alsoFailed: ['factual'],
        missing: [],
      });
      const [f, q] = pair.result().outcomes;
      expect(q?.sequence).toBeLessThan(f?.sequence ?? 0);
    });

    it('a retryable failure also stops the pair (it can no longer accept) and keeps retryable for the caller', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const pair = executor.runPair(h.pair('a'));
      await flush();
      h.call('a', 'factual').resolve(failure('factual', 'model_timeout', true));
      const result = await pair;
      expect(h.invoked('a', 'quality')).toBe(false);
      expect(result).toMatchObject({ stoppedBy: 'terminal_failure', decision: { outcome: 'errored', by: 'factual', error: { retryable: true } } });
    });

    it('a malformed result fails closed and never reads as a pass', async () => {
      const executor = new ReviewExecutor({ leafLimit: 2 });
      const wrongKind: ReviewLeaf = async () => pass('quality');
      const result = await executor.runPair({ factual: wrongKind, quality: async () => pass('quality') });
      expect(result.decision).toMatchObject({ accepted: false, outcome: 'errored', by: 'factual', error: { code: 'review_leaf_malformed' } });
    });
  });

  it('7. no partial pair accepts; a full passing pair does', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 1 });
    const owner = new AbortController();
    const partial = executor.runPair(h.pair('a', owner.signal));
    await flush();
    h.call('a', 'factual').resolve(pass('factual'));
    await flush();
    owner.abort();
    h.call('a', 'quality').reject(abortError());
    const half = await partial;
    expect(half.outcomes[0]).toMatchObject({ kind: 'factual', passed: true });
    expect(half.outcomes[1]).toBeUndefined();
    expect(half.decision).toEqual({ accepted: false, outcome: 'incomplete', missing: ['quality'] });

    const full = executor.runPair(h.pair('b'));
    await flush();
    h.call('b', 'factual').resolve(pass('factual'));
    await flush();
    h.call('b', 'quality').resolve(pass('quality', ['a bit long']));
    expect((await full).decision).toMatchObject({ accepted: true, outcome: 'accepted', advisories: ['a bit long'] });
  });

  it('8. a leaf that ignores the abort keeps its permit until it settles', async () => {
    const h = new Harness();
    const executor = new ReviewExecutor({ leafLimit: 2 });
    const owner = new AbortController();
    const cancelled = track(executor.runPair(h.pair('a', owner.signal)));
    const other = executor.runPair(h.pair('b'));
    await flush();
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 2, queuedLeaves: 2 });

    owner.abort(); // a's leaves are signalled but, like an in-flight SDK call, keep going
    await flush();
    expect(executor.snapshot()).toMatchObject({ runningLeaves: 2, queuedLeaves: 2 });
    expect(h.invoked('b')).toBe(false);

    h.call('a', 'factual').resolve(pass('factual'));
    await flush();
    expect(h.invoked('b', 'factual')).toBe(true);
    expect(h.invoked('b', 'quality')).toBe(false); // a/quality still holds the other permit
    expect(cancelled.done()).toBe(false);

    h.call('a', 'quality').resolve(reject('quality', ['late']));
    await flush();
    expect(h.invoked('b', 'quality')).toBe(true);
    // The settled results are recorded (usage happened); the first stop reason stays.
    expect(cancelled.result()).toMatchObject({ stoppedBy: 'cancelled', decision: { outcome: 'rejected', by: 'quality' } });
    expect(h.peak).toBe(2);

    h.call('b', 'factual').resolve(pass('factual'));
    h.call('b', 'quality').resolve(pass('quality'));
    expect((await other).decision.accepted).toBe(true);
  });

  describe('9. shutdown', () => {
    it('stops admission, drains admitted pairs, then resolves; later runPair rejects', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const admitted = track(executor.runPair(h.pair('a')));
      const waiting = executor.runPair(h.pair('b'));
      await flush();

      let drained = false;
      const shutdown = executor.shutdown().then(() => (drained = true));
      expect(await waiting).toEqual({
        decision: { accepted: false, outcome: 'incomplete', missing: ['factual', 'quality'] },
        outcomes: [undefined, undefined],
        stoppedBy: 'shutdown',
      });
      await expect(executor.runPair(h.pair('c'))).rejects.toBeInstanceOf(ReviewExecutorClosedError);
      await expect(executor.runPair(h.pair('c'))).rejects.toMatchObject({ code: 'review_executor_closed' });
      expect(executor.snapshot()).toMatchObject({ closed: true, admittedPairs: 1, waitingPairs: 0 });

      // Draining includes the admitted pair's still-queued leaf, which is not stopped.
      h.call('a', 'factual').resolve(pass('factual'));
      await flush();
      expect(drained).toBe(false);
      const quality = h.call('a', 'quality');
      expect(quality.ctx.canAttempt()).toBe(true);
      quality.resolve(pass('quality'));
      await shutdown;

      expect(admitted.result()).toMatchObject({ decision: { accepted: true } });
      expect(admitted.result().stoppedBy).toBeUndefined();
      expect(executor.snapshot()).toEqual({ leafLimit: 1, runningLeaves: 0, queuedLeaves: 0, admittedPairs: 0, waitingPairs: 0, closed: true });
      await expect(executor.shutdown()).resolves.toBeUndefined(); // idempotent
      expect(h.invoked('b') || h.invoked('c')).toBe(false);
    });

    it('shutdown({ abort: true }) stops admitted pairs but still waits for running leaves', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const pair = executor.runPair(h.pair('a'));
      await flush();
      let drained = false;
      const shutdown = executor.shutdown({ abort: true }).then(() => (drained = true));
      const factual = h.call('a', 'factual');
      expect(factual.ctx.canAttempt()).toBe(false);
      await flush();
      expect(drained).toBe(false);

      factual.reject(abortError());
      await shutdown;
      expect(await pair).toMatchObject({ stoppedBy: 'shutdown', decision: { outcome: 'incomplete' } });
      expect(h.invoked('a', 'quality')).toBe(false);
    });

    it('resolves at once when nothing is admitted', async () => {
      await expect(new ReviewExecutor({ leafLimit: 3 }).shutdown()).resolves.toBeUndefined();
    });
  });

  describe('10. permits and configuration', () => {
    it('a leaf that throws synchronously or rejects does not leak its permit', async () => {
      const h = new Harness();
      const executor = new ReviewExecutor({ leafLimit: 1 });
      const throwsSync: ReviewLeaf = () => {
        throw new Error('boom');
      };
      const thrown = await executor.runPair({ factual: throwsSync, quality: h.leaf('a', 'quality') });
      expect(thrown).toMatchObject({
        stoppedBy: 'terminal_failure',
        decision: { outcome: 'errored', by: 'factual', error: { code: 'review_leaf_threw', message: 'boom', retryable: false }, missing: ['quality'] },
      });
      expect(executor.snapshot()).toMatchObject({ runningLeaves: 0, queuedLeaves: 0, admittedPairs: 0 });

      const rejects: ReviewLeaf = () => Promise.reject(new Error('network'));
      const rejected = executor.runPair({ factual: h.leaf('b', 'factual'), quality: rejects });
      await flush();
      h.call('b', 'factual').resolve(pass('factual'));
      expect((await rejected).decision).toMatchObject({ outcome: 'errored', by: 'quality', error: { code: 'review_leaf_threw', message: 'network' } });
      expect(executor.snapshot()).toMatchObject({ runningLeaves: 0, queuedLeaves: 0, admittedPairs: 0 });

      // With N = 1 a leaked permit would leave this pair stuck forever.
      const next = executor.runPair(h.pair('c'));
      await flush();
      h.call('c', 'factual').resolve(pass('factual'));
      await flush();
      h.call('c', 'quality').resolve(pass('quality'));
      expect((await next).decision.accepted).toBe(true);
      expect(h.invoked('a')).toBe(false); // the sync throw stopped a's quality before it started
    });

    it('rejects an invalid leafLimit', () => {
      for (const leafLimit of [0, 1.5, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(() => new ReviewExecutor({ leafLimit })).toThrow(/leafLimit must be an integer >= 1/);
      }
    });
  });
});
