import type { LlmClient } from './llm.types';
import { simulatedClient, simulatorPerTest, titleRequest } from './testing/model-client.fixture';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'] };

const request = () =>
  titleRequest({ lane: 'cover', system: 'You write cover letters.', user: 'Write one.', schemaName: 'letter', schema, maxOutputTokens: 500 });

describe('AnthropicClient', () => {
  const simulator = simulatorPerTest('Dear team');

  function client(apiKey?: string): LlmClient {
    return simulatedClient({ provider: 'anthropic', model: 'claude-test', baseUrl: simulator().origin, apiKey, prices: { 'claude-test': { input_usd_per_mtok: 3, output_usd_per_mtok: 15 } } });
  }

  it('posts v1/messages with x-api-key, the API version and a forced tool call', async () => {
    const result = await client('ak-123').generate(request());
    expect(result.value).toEqual({ title: 'Dear team' });
    expect(result.usage[0]).toMatchObject({ provider: 'anthropic', lane: 'cover', effort: 'medium', outcome: 'ok' });
    expect(result.usage[0].costUsd).toBeGreaterThan(0);

    const [sent] = simulator().requests;
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
    simulator().enqueue({ content: { title: 42 } });
    await client().generate(request());
    const messages = simulator().requests[1].body?.['messages'] as { role: string; content: unknown }[];
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
    simulator().enqueue({ content: 'Sure! Here is a letter.' });
    await client().generate(request());
    const messages = simulator().requests[1].body?.['messages'] as { role: string; content: unknown }[];
    expect(messages[1]).toEqual({ role: 'assistant', content: [{ type: 'text', text: 'Sure! Here is a letter.' }] });
    expect(messages[2]).toEqual({
      role: 'user',
      content:
        'Your previous answer was invalid: the answer has no letter tool_use block. Answer again with JSON that matches the schema.',
    });
  });
});
