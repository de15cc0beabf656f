import { foldReviewPair } from './review-pair.rules';
import type { ReviewOutcome } from './review.types';

const pass = (kind: 'factual' | 'quality', sequence: number, issues: string[] = []): ReviewOutcome => ({ kind, passed: true, issues, sequence });
const reject = (kind: 'factual' | 'quality', sequence: number, issues: string[]): ReviewOutcome => ({ kind, passed: false, issues, sequence });
const error = (kind: 'factual' | 'quality', sequence: number, code = 'MODEL_TIMEOUT', retryable = true): ReviewOutcome => ({
  kind,
  sequence,
  error: { code, message: `${kind} review failed`, retryable },
});

describe('foldReviewPair', () => {
  it('accepts only when both reviews completed and passed, carrying advisories', () => {
    const decision = foldReviewPair([pass('quality', 1, ['slightly long']), pass('factual', 2)]);
    expect(decision).toEqual({
      accepted: true,
      outcome: 'accepted',
      verdicts: {
        factual: { kind: 'factual', passed: true, issues: [] },
        quality: { kind: 'quality', passed: true, issues: ['slightly long'] },
      },
      advisories: ['slightly long'],
    });
  });

  it('never accepts a partial pair', () => {
    expect(foldReviewPair([pass('factual', 1), undefined])).toEqual({ accepted: false, outcome: 'incomplete', missing: ['quality'] });
    expect(foldReviewPair([undefined, pass('quality', 1)])).toEqual({ accepted: false, outcome: 'incomplete', missing: ['factual'] });
    expect(foldReviewPair([pass('factual', 1)])).toMatchObject({ accepted: false, missing: ['quality'] });
    expect(foldReviewPair([])).toEqual({ accepted: false, outcome: 'incomplete', missing: ['factual', 'quality'] });
  });

  it('reports the first failure by completion sequence, not by array position', () => {
    const decision = foldReviewPair([reject('factual', 2, ['invented employer']), reject('quality', 1, ['too generic'])]);
    expect(decision).toEqual({ accepted: false, outcome: 'rejected', by: 'quality', issues: ['too generic'], alsoFailed: ['factual'], missing: [] });
  });

  it('lets an earlier error win over a later rejection, and vice versa', () => {
    expect(foldReviewPair([reject('quality', 5, ['weak']), error('factual', 4)])).toEqual({
      accepted: false,
      outcome: 'errored',
      by: 'factual',
      error: { code: 'MODEL_TIMEOUT', message: 'factual review failed', retryable: true },
      alsoFailed: ['quality'],
      missing: [],
    });
    expect(foldReviewPair([reject('quality', 3, ['weak']), error('factual', 4)])).toMatchObject({ outcome: 'rejected', by: 'quality', alsoFailed: ['factual'] });
  });

  it('reports a failure even when the other review is missing, and lists the missing one', () => {
    expect(foldReviewPair([error('quality', 1, 'REFUSED', false), undefined])).toMatchObject({
      accepted: false,
      outcome: 'errored',
      by: 'quality',
      error: { code: 'REFUSED', retryable: false },
      missing: ['factual'],
    });
  });

  it('does not accept when one review passed and the other rejected', () => {
    const decision = foldReviewPair([pass('factual', 1), reject('quality', 2, ['off-topic'])]);
    expect(decision.accepted).toBe(false);
    expect(decision).toMatchObject({ outcome: 'rejected', by: 'quality', issues: ['off-topic'], alsoFailed: [] });
  });

  it('rejects malformed input loudly instead of guessing', () => {
    expect(() => foldReviewPair([pass('factual', 1), pass('factual', 2)])).toThrow(/more than one factual/);
    expect(() => foldReviewPair([pass('factual', 1), pass('quality', 1)])).toThrow(/sequence 1 is used twice/);
    expect(() => foldReviewPair([pass('factual', Number.NaN)])).toThrow(/finite completion sequence/);
    expect(() => foldReviewPair([{ kind: 'factual', passed: 'yes', issues: [], sequence: 1 } as unknown as ReviewOutcome])).toThrow(/boolean "passed"/);
    expect(() => foldReviewPair([{ kind: 'style', passed: true, issues: [], sequence: 1 } as unknown as ReviewOutcome])).toThrow(/unknown review kind/);
  });

  it('does not share arrays with its input', () => {
    const issues = ['x'];
    const decision = foldReviewPair([reject('factual', 1, issues), pass('quality', 2)]);
    issues.push('mutated');
    expect(decision).toMatchObject({ issues: ['x'] });
  });
});
