import { costUsd, estimateCostUsd } from './llm.pricing';

const prices = { paid: { input_usd_per_mtok: 3, output_usd_per_mtok: 15 } };

describe('costUsd', () => {
  it('charges per million tokens', () => {
    expect(costUsd(prices, 'paid', 1_000_000, 100_000)).toBeCloseTo(4.5, 12);
  });

  it('charges nothing for a model without a price (local servers)', () => {
    expect(costUsd(prices, 'llama3', 1_000_000, 1_000_000)).toBe(0);
    expect(costUsd(prices, 'constructor', 10, 10)).toBe(0);
  });
});

describe('estimateCostUsd', () => {
  it('counts ceil(chars / 3) input tokens and the full output budget', () => {
    // 7 chars -> 3 input tokens; output defaults to 1024.
    expect(estimateCostUsd(prices, 'paid', { system: 'abc', user: 'defg' })).toBeCloseTo((3 * 3 + 1024 * 15) / 1e6, 12);
    expect(estimateCostUsd(prices, 'paid', { system: '', user: 'abc', maxOutputTokens: 10 })).toBeCloseTo((3 + 150) / 1e6, 12);
    expect(estimateCostUsd(prices, 'free', { system: 'abc', user: 'abc' })).toBe(0);
  });
});
