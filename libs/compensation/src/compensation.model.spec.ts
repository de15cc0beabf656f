import { figuresIn, parseModelAnswer, ungroundedReason, type ModelCompensationAnswer } from './compensation.model';

const answer = (o: Partial<ModelCompensationAnswer>): ModelCompensationAnswer => ({ kind: 'base', currency: 'USD', interval: 'year', min: null, max: null, confidence: 0.8, ...o });

describe('model compensation answers', () => {
  it('reads every amount the text writes, with k/M/lakh read both ways', () => {
    expect(figuresIn('Salary: 60k-100k, bonus 1.5M, 120.000 €, ₹5 lakhs, 1 20 000')).toEqual(expect.arrayContaining([60, 60_000, 100_000, 1_500_000, 120_000, 500_000]));
  });

  it('accepts figures written in the text and refuses invented ones', () => {
    expect(ungroundedReason(answer({ min: 60_000, max: 100_000 }), 'Salary: 60k-100k')).toBeNull();
    expect(ungroundedReason(answer({ min: 60_000, max: 120_000 }), 'Salary: 60k-100k')).toBe('model_max_not_in_text');
    expect(ungroundedReason(answer({ min: 150_000, max: null }), 'Competitive salary')).toBe('model_min_not_in_text');
    expect(ungroundedReason(answer({}), 'Salary: 60k-100k')).toBe('model_no_figures');
    expect(ungroundedReason(answer({ kind: 'none', min: 10 }), 'DOE')).toBe('model_figures_without_pay');
    expect(ungroundedReason(answer({ kind: 'none' }), 'DOE')).toBeNull();
    expect(ungroundedReason(answer({ kind: 'equity', currency: null, interval: null }), 'up to 3% equity')).toBeNull();
  });

  it('checks the answer shape and names the field at fault', () => {
    expect(parseModelAnswer({ kind: 'base', currency: 'usd', interval: 'year', min: 1, max: 2, confidence: 0.5 })).toMatchObject({ currency: 'USD' });
    expect(() => parseModelAnswer({ kind: 'salary', currency: null, interval: null, min: null, max: null, confidence: 1 })).toThrow(/^kind:/);
    expect(() => parseModelAnswer({ kind: 'base', currency: 'dollars', interval: null, min: null, max: null, confidence: 1 })).toThrow(/^currency:/);
    expect(() => parseModelAnswer({ kind: 'base', currency: null, interval: 'fortnight', min: null, max: null, confidence: 1 })).toThrow(/^interval:/);
    expect(() => parseModelAnswer({ kind: 'base', currency: null, interval: null, min: -5, max: null, confidence: 1 })).toThrow(/^min:/);
    expect(() => parseModelAnswer({ kind: 'base', currency: null, interval: null, min: null, max: null, confidence: 2 })).toThrow(/^confidence:/);
    expect(() => parseModelAnswer({ kind: 'base', currency: null, interval: null, min: null, max: null, confidence: 1, extra: 1 })).toThrow(/extra: unexpected/);
  });
});
