import { createLlmClient } from './llm-client.factory';
import type { LlmClient, StructuredRequest } from './llm.types';
import { startLlmSimulator, type LlmSimulator } from './testing/llm-simulator';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

function request(): StructuredRequest<{ title: string }> {
  return {
    lane: 'cover',
    system: 'You write cover letters.',
    user: 'Write one.',
    schemaName: 'letter',
    schema,
    maxOutputTokens: 500,
    parse: (value) => {
      const title = (value as { title?: unknown }).title;
      if (typeof title !== 'string') throw new Error('title must be a string');
      return { title };
    },
  };
}

describe('AnthropicClient', () => {
  let sim: LlmSimulator;

  beforeEach(async () => {
    sim = await startLlmSimulator({ respond: () => ({ title: 'Dear team' }) });
  });
  afterEach(() => sim.close());

  function client(apiKey?: string): LlmClient {
    return createLlmClient({
      provider: 'anthropic',
      model: 'claude-test',
      baseUrl: sim.origin,
      apiKey,
      prices: { 'claude-test': { input_usd_per_mtok: 3, output_usd_per_mtok: 15 } },
      timeoutMs: 2000,
      onUsage: () => Promise.resolve(),
    });
  }

  it('posts v1/messages with x-api-key, the API version and a forced tool call', async () => {
    const result = await client('ak-123').generate(request());
    expect(result.value).toEqual({ title: 'Dear team' });
    expect(result.usage[0]).toMatchObject({ provider: 'anthropic', lane: 'cover', effort: 'medium', outcome: 'ok' });
    expect(result.usage[0].costUsd).toBeGreaterThan(0);

    const [sent] = sim.requests;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers).toMatchObject({
      'x-api-key': 'ak-123',
      'anthropic-version': '2023-06-01',
      'content-type': 'application/json',
    });
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.body).toEqual({
      model: 'claude-test',
      system: 'You write cover letters.',
      max_tokens: 500,
      messages: [{ role: 'user', content: 'Write one.' }],
      tools: [{ name: 'letter', description: expect.any(String), input_schema: schema }],
      tool_choice: { type: 'tool', name: 'letter' },
    });
  });

  it('answers the invalid tool call with an error tool_result carrying the repair instruction', async () => {
    sim.enqueue({ content: { title: 42 } });
    await client().generate(request());
    const messages = sim.requests[1].body?.['messages'] as { role: string; content: unknown }[];
    expect(messages).toHaveLength(3);
    expect(messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: expect.any(String), name: 'letter', input: { title: 42 } }],
    });
    const toolUseId = (messages[1].content as { id: string }[])[0].id;
    expect(messages[2]).toEqual({
      role: 'user',
      content: [
        {
          type: 'tool_result',
          tool_use_id: toolUseId,
          is_error: true,
          content: 'Your previous answer was invalid: title must be a string. Answer again with JSON that matches the schema.',
        },
      ],
    });
  });

  it('answers a text-only reply (no tool call) with a plain-text repair turn', async () => {
    sim.enqueue({ content: 'Sure! Here is a letter.' });
    await client().generate(request());
    const messages = sim.requests[1].body?.['messages'] as { role: string; content: unknown }[];
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Sure! Here is a letter.' }] });
    expect(messages[2]).toEqual({
      role: 'user',
      content:
        'Your previous answer was invalid: the answer has no letter tool_use block. Answer again with JSON that matches the schema.',
    });
  });
});
