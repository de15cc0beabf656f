import type { LlmClient } from './llm.types';
import { simulatedClient, simulatorPerTest, titleRequest } from './testing/model-client.fixture';

const schema = { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false };

const request = () =>
  titleRequest({ lane: 'tailor', system: 'You tailor resumes.', user: 'Tailor this.', schemaName: 'tailored', schema, maxOutputTokens: 300 });

describe('OpenAiClient', () => {
  const simulator = simulatorPerTest('Engineer');

  function client(options: { apiKey?: string; baseUrl?: string } = {}): LlmClient {
    return simulatedClient({ provider: 'openai', model: 'gpt-test', baseUrl: options.baseUrl ?? simulator().url, apiKey: options.apiKey, prices: {} });
  }

  it('posts chat/completions with a bearer key and a strict json_schema response format', async () => {
    const result = await client({ apiKey: 'sk-abc' }).generate(request());
    expect(result.value).toEqual({ title: 'Engineer' });
    // A model missing from the price table (a local server) costs nothing.
    expect(result.usage[0].costUsd).toBe(0);

    const [sent] = simulator().requests;
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
    await client({ baseUrl: `${simulator().url}/` }).generate(req);
    const [sent] = simulator().requests;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers['authorization']).toBeUndefined();
    expect(sent.body?.['max_tokens']).toBe(1024);
  });

  it('works against a server mounted without /v1', async () => {
    await client({ baseUrl: simulator().origin }).generate(request());
    expect(simulator().requests[0].path).toBe('/chat/completions');
  });

  it('replays the invalid answer as an assistant turn followed by the repair instruction', async () => {
    simulator().enqueue({ content: { title: 42 } });
    await client().generate(request());
    expect(simulator().requests[1].body?.['messages']).toEqual([
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
