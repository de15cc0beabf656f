import { createLlmClient } from './llm-client.factory';
import type { LlmClient, StructuredRequest } from './llm.types';
import { startLlmSimulator, type LlmSimulator } from './testing/llm-simulator';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false };

function request(): StructuredRequest<{ title: string }> {
  return {
    lane: 'tailor',
    system: 'You tailor resumes.',
    user: 'Tailor this.',
    schemaName: 'tailored',
    schema,
    maxOutputTokens: 300,
    parse: (value) => {
      const title = (value as { title?: unknown }).title;
      if (typeof title !== 'string') throw new Error('title must be a string');
      return { title };
    },
  };
}

describe('OpenAiClient', () => {
  let sim: LlmSimulator;

  beforeEach(async () => {
    sim = await startLlmSimulator({ respond: () => ({ title: 'Engineer' }) });
  });
  afterEach(() => sim.close());

  function client(options: { apiKey?: string; baseUrl?: string } = {}): LlmClient {
    return createLlmClient({
      provider: 'openai',
      model: 'gpt-test',
      baseUrl: options.baseUrl ?? sim.url,
      apiKey: options.apiKey,
      prices: {},
      timeoutMs: 2000,
      onUsage: () => Promise.resolve(),
    });
  }

  it('posts chat/completions with a bearer key and a strict json_schema response format', async () => {
    const result = await client({ apiKey: 'sk-abc' }).generate(request());
    expect(result.value).toEqual({ title: 'Engineer' });
    // A model missing from the price table (a local server) costs nothing.
    expect(result.usage[0].costUsd).toBe(0);

    const [sent] = sim.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBe('Bearer sk-abc');
    expect(sent.headers['content-type']).toBe('application/json');
    expect(sent.body).toEqual({
      model: 'gpt-test',
      messages: [
        { role: 'system', content: 'You tailor resumes.' },
        { role: 'user', content: 'Tailor this.' },
      ],
      response_format: { type: 'json_schema', json_schema: { name: 'tailored', schema, strict: true } },
      max_tokens: 300,
    });
  });

  it('sends no authorization header without a key, ignores a trailing slash and defaults max_tokens', async () => {
    const req = { ...request(), maxOutputTokens: undefined };
    await client({ baseUrl: `${sim.url}/` }).generate(req);
    const [sent] = sim.requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.body?.['max_tokens']).toBe(1024);
  });

  it('works against a server mounted without /v1', async () => {
    await client({ baseUrl: sim.origin }).generate(request());
    expect(sim.requests[0].path).toBe('/chat/completions');
  });

  it('replays the invalid answer as an assistant turn followed by the repair instruction', async () => {
    sim.enqueue({ content: { title: 42 } });
    await client().generate(request());
    expect(sim.requests[1].body?.['messages']).toEqual([
      { role: 'system', content: 'You tailor resumes.' },
      { role: 'user', content: 'Tailor this.' },
      { role: 'assistant', content: '{"title":42}' },
      {
        role: 'user',
        content: 'Your previous answer was invalid: title must be a string. Answer again with JSON that matches the schema.',
      },
    ]);
  });
});
