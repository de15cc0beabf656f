import { createLlmClient } from './llm-client.factory';
import { LlmError } from './llm.errors';
import type { LlmClient, LlmUsage, ModelProviderName, PriceTable, StructuredRequest } from './llm.types';
import { startLlmSimulator, type LlmSimulator, type LlmSimulatorOptions } from './testing/llm-simulator';

interface Verdict {
  score: number;
}

const PRICES: PriceTable = { 'sim-model': { input_usd_per_mtok: 2, output_usd_per_mtok: 10 } };

function parseVerdict(value: unknown): Verdict {
  const score = (value as { score?: unknown } | null)?.score;
  if (typeof score !== 'number') throw new Error('score must be a number');
  return { score };
}

function request(overrides: Partial<StructuredRequest<Verdict>> = {}): StructuredRequest<Verdict> {
  return {
    lane: 'score',
    system: 'You score jobs.',
    user: 'Score this job.',
    schemaName: 'verdict',
    schema: { type: 'object', properties: { score: { type: 'number' } }, required: ['score'], additionalProperties: false },
    parse: parseVerdict,
    ...overrides,
  };
}

/** Polls a condition of the simulator's state (no timing assertion: jest's timeout bounds it). */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

async function expectLlmError(promise: Promise<unknown>): Promise<LlmError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(LlmError);
  return err as LlmError;
}

describe.each<ModelProviderName>(['openai', 'anthropic'])('structured call over %s', (provider) => {
  let sim: LlmSimulator;
  let usages: LlmUsage[];

  async function start(options: LlmSimulatorOptions = {}): Promise<void> {
    sim = await startLlmSimulator({ respond: () => ({ score: 7 }), ...options });
  }

  function client(timeoutMs = 2000, baseUrl = sim.baseUrlFor(provider)): LlmClient {
    return createLlmClient({
      provider,
      model: 'sim-model',
      baseUrl,
      apiKey: 'sk-test',
      prices: PRICES,
      timeoutMs,
      onUsage: async (usage) => {
        usages.push(usage);
      },
    });
  }

  beforeEach(async () => {
    usages = [];
    await start();
  });

  afterEach(async () => {
    await sim.close();
  });

  it('returns the parsed value with usage, cost and effort, and reports usage to onUsage', async () => {
    await sim.close();
    await start({ usage: () => ({ inputTokens: 1000, outputTokens: 200 }) });
    const result = await client().generate(request({ effort: 'high' }));

    expect(result.value).toEqual({ score: 7 });
    const expected: LlmUsage = {
      provider,
      model: 'sim-model',
      lane: 'score',
      effort: 'high',
      inputTokens: 1000,
      outputTokens: 200,
      costUsd: 0.004, // 1000 * 2 / 1e6 + 200 * 10 / 1e6
      outcome: 'ok',
    };
    expect(result.usage).toEqual([{ ...expected, costUsd: expect.closeTo(0.004, 12) }]);
    expect(usages).toEqual(result.usage);
    expect(sim.requests).toHaveLength(1);
  });

  it('maps 429 with Retry-After to a retryable llm_rate_limited with retryAfterMs', async () => {
    sim.enqueue({ status: 429, retryAfter: '2' });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_rate_limited', retryable: true, retryAfterMs: 2000, status: 429 });
    // The request reached the server, so it is a call; an error answer bills no tokens.
    expect(usages).toEqual([expect.objectContaining({ outcome: 'http_error', inputTokens: 0, outputTokens: 0, costUsd: 0 })]);
  });

  it('maps 500 to a retryable llm_server', async () => {
    sim.enqueue({ status: 500 });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_server', retryable: true, status: 500 });
  });

  it('maps 529 (overloaded) to a retryable llm_server', async () => {
    sim.enqueue({ status: 529 });
    expect(await expectLlmError(client().generate(request()))).toMatchObject({ code: 'llm_server', retryable: true });
  });

  it('maps 401 to a non-retryable llm_auth', async () => {
    await sim.close();
    await start({ requireApiKey: 'sk-other' });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_auth', retryable: false, status: 401 });
    expect(err.message).not.toContain('sk-test');
  });

  it('maps 400 to a non-retryable llm_bad_request carrying the provider message', async () => {
    sim.enqueue({ status: 400, message: 'schema is not supported' });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_bad_request', retryable: false, status: 400 });
    expect(err.message).toContain('schema is not supported');
  });

  it('maps a 200 whose body is not JSON to a retryable llm_server, without a repair attempt', async () => {
    sim.enqueue({ malformedBody: true });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_server', retryable: true, status: 200 });
    expect(sim.requests).toHaveLength(1);
    // No readable usage in an unreadable answer: charged at the attempt's worst case.
    expect(usages).toEqual([expect.objectContaining({ outcome: 'unanswered', estimated: true, costUsd: expect.closeTo(client().estimateCostUsd(request()), 12) })]);
  });

  // Fault suite (issue #15): a model server that dies mid-answer. The request reached it, so it is
  // charged its worst case; the error is retryable and says what happened, not a bare failure.
  it('maps a 200 cut off mid-answer (Content-Length not reached, connection closed) to a retryable error, without a repair attempt', async () => {
    sim.enqueue({ cutOff: true });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ retryable: true });
    expect(['llm_server', 'llm_network']).toContain(err.code);
    expect(err.message.length).toBeGreaterThan(10);
    expect(sim.requests).toHaveLength(1);
    expect(usages).toEqual([expect.objectContaining({ outcome: 'unanswered', estimated: true })]);
    // The next call is answered normally.
    await expect(client().generate(request())).resolves.toMatchObject({ value: { score: 7 } });
  });

  it('repairs an invalid answer once and records both attempts', async () => {
    sim.enqueue({ content: { wrong: 'shape' } });
    const result = await client().generate(request());
    expect(result.value).toEqual({ score: 7 });
    expect(result.usage.map((u) => u.outcome)).toEqual(['invalid_output', 'ok']);
    expect(usages).toEqual(result.usage);
    expect(sim.requests).toHaveLength(2);
    expect(JSON.stringify(sim.requests[1].body)).toContain(
      'Your previous answer was invalid: score must be a number. Answer again with JSON that matches the schema.',
    );
  });

  it('repairs an answer that is not JSON at all', async () => {
    sim.enqueue({ content: 'not json' });
    const result = await client().generate(request());
    expect(result.value).toEqual({ score: 7 });
    expect(result.usage.map((u) => u.outcome)).toEqual(['invalid_output', 'ok']);
  });

  it('throws llm_invalid_output after the repair attempt also fails, having recorded both usages', async () => {
    sim.enqueue({ content: 'not json' }, { content: { wrong: 'shape' } });
    const err = await expectLlmError(client().generate(request()));
    expect(err).toMatchObject({ code: 'llm_invalid_output', retryable: true });
    expect(err.message).toContain('score must be a number');
    expect(usages.map((u) => u.outcome)).toEqual(['invalid_output', 'invalid_output']);
    expect(sim.requests).toHaveLength(2);
  });

  it('times out an attempt that exceeds timeoutMs with llm_timeout', async () => {
    sim.enqueue({ hangMs: 1000 });
    const started = Date.now();
    const err = await expectLlmError(client(100).generate(request()));
    expect(err).toMatchObject({ code: 'llm_timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('a timed-out attempt reached the server: it is charged its worst case', async () => {
    sim.enqueue({ hangMs: 5000 });
    await expectLlmError(client(100).generate(request({ maxOutputTokens: 300 })));
    expect(usages).toEqual([
      expect.objectContaining({ outcome: 'unanswered', estimated: true, outputTokens: 300, costUsd: expect.closeTo(client().estimateCostUsd(request({ maxOutputTokens: 300 })), 12) }),
    ]);
  });

  it('stops at the caller signal with a non-retryable llm_cancelled, and charges the in-flight request its worst case', async () => {
    sim.enqueue({ hangMs: 5000 });
    const controller = new AbortController();
    const call = client().generate(request({ signal: controller.signal }));
    // Abort only once the server holds the request, so it certainly left.
    await until(() => sim.inFlight === 1);
    controller.abort();
    const err = await expectLlmError(call);
    expect(err).toMatchObject({ code: 'llm_cancelled', retryable: false });
    expect(sim.requests).toHaveLength(1);
    const worstCase = client().estimateCostUsd(request());
    expect(worstCase).toBeGreaterThan(0);
    expect(usages).toEqual([expect.objectContaining({ outcome: 'unanswered', estimated: true, costUsd: expect.closeTo(worstCase, 12) })]);
  });

  it('a repair attempt cancelled in flight is charged too: one call per request, the answered one at its usage', async () => {
    sim.enqueue({ content: { wrong: 'shape' } }, { hangMs: 5000 });
    const controller = new AbortController();
    const call = client().generate(request({ signal: controller.signal }));
    await until(() => sim.requests.length === 2 && sim.inFlight === 1);
    controller.abort();
    await expectLlmError(call);
    expect(usages.map((u) => u.outcome)).toEqual(['invalid_output', 'unanswered']);
    // The repair attempt also sends the previous answer, so its worst case is above the first one's.
    expect(usages[1].costUsd).toBeGreaterThan(client().estimateCostUsd(request()));
  });

  it('does not call the provider, nor charge anything, when the signal is already aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    const err = await expectLlmError(client().generate(request({ signal: controller.signal })));
    expect(err.code).toBe('llm_cancelled');
    expect(sim.requests).toHaveLength(0);
    expect(usages).toEqual([]);
  });

  it('maps a refused connection to a retryable llm_network, charging nothing (no request reached a server)', async () => {
    const closed = await startLlmSimulator();
    const baseUrl = closed.baseUrlFor(provider);
    await closed.close();
    const err = await expectLlmError(client(2000, baseUrl).generate(request()));
    expect(err).toMatchObject({ code: 'llm_network', retryable: true, unanswered: false });
    expect(usages).toEqual([]);
  });

  it('propagates a failing usage sink instead of swallowing the spend record', async () => {
    const failing = createLlmClient({
      provider,
      model: 'sim-model',
      baseUrl: sim.baseUrlFor(provider),
      prices: PRICES,
      timeoutMs: 2000,
      onUsage: () => Promise.reject(new Error('ledger down')),
    });
    await expect(failing.generate(request())).rejects.toThrow('ledger down');
  });
});
