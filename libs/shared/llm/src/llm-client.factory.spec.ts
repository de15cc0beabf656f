import { AnthropicClient } from './anthropic.client';
import { createLlmClient, type LlmClientOptions } from './llm-client.factory';
import { LlmError } from './llm.errors';
import { OpenAiClient } from './openai.client';
import { startLlmSimulator } from './testing/llm-simulator';

const base: LlmClientOptions = {
  provider: 'openai',
  model: 'm',
  prices: { m: { input_usd_per_mtok: 1, output_usd_per_mtok: 1 } },
  timeoutMs: 1000,
  onUsage: () => Promise.resolve(),
};

describe('createLlmClient', () => {
  it('builds the client of the configured provider', () => {
    expect(createLlmClient(base)).toBeInstanceOf(OpenAiClient);
    const anthropic = createLlmClient({ ...base, provider: 'anthropic' });
    expect(anthropic).toBeInstanceOf(AnthropicClient);
    expect(anthropic).toMatchObject({ provider: 'anthropic', model: 'm' });
  });

  it('rejects an empty model and a bad timeout as non-retryable llm_bad_request', () => {
    for (const options of [{ ...base, model: '' }, { ...base, model: '  ' }, { ...base, timeoutMs: 0 }]) {
      let thrown: unknown;
      try {
        createLlmClient(options);
      } catch (err) {
        thrown = err;
      }
      expect(thrown).toBeInstanceOf(LlmError);
      expect(thrown).toMatchObject({ code: 'llm_bad_request', retryable: false });
    }
  });

  it('estimates with the price table', () => {
    expect(createLlmClient(base).estimateCostUsd({ system: 'abc', user: '', maxOutputTokens: 9 })).toBeCloseTo(10 / 1e6, 12);
  });

  it('records defaultEffort (or medium) in usage without sending it', async () => {
    const sim = await startLlmSimulator({ respond: () => ({ ok: true }) });
    try {
      const req = { lane: 'review' as const, system: 's', user: 'u', schemaName: 'x', schema: {}, parse: (v: unknown) => v };
      const low = await createLlmClient({ ...base, baseUrl: sim.url, defaultEffort: 'low' }).generate(req);
      const medium = await createLlmClient({ ...base, baseUrl: sim.url }).generate(req);
      expect(low.usage[0].effort).toBe('low');
      expect(medium.usage[0].effort).toBe('medium');
      expect(JSON.stringify(sim.requests.map((r) => r.body))).not.toMatch(/effort/);
    } finally {
      await sim.close();
    }
  });
});
