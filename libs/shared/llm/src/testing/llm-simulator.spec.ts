import { startLlmSimulator, type LlmSimulator } from './llm-simulator';

function post(sim: LlmSimulator, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${sim.origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

const openAiBody = {
  model: 'm',
  messages: [
    { role: 'system', content: 'sys' },
    { role: 'user', content: 'hello' },
  ],
  response_format: { type: 'json_schema', json_schema: { name: 'thing', schema: {}, strict: true } },
};

describe('startLlmSimulator', () => {
  let sim: LlmSimulator;
  afterEach(() => sim.close());

  it('hands respond the decoded request and answers with default usage', async () => {
    const seen: unknown[] = [];
    sim = await startLlmSimulator({
      respond: (req) => {
        seen.push({ protocol: req.protocol, schemaName: req.schemaName, system: req.system, user: req.user, isRepair: req.isRepair });
        return { a: 1 };
      },
    });
    const answer = (await (await post(sim, '/v1/chat/completions', openAiBody)).json()) as {
      choices: { message: { content: string } }[];
      usage: { prompt_tokens: number; completion_tokens: number };
    };
    expect(seen).toEqual([{ protocol: 'openai', schemaName: 'thing', system: 'sys', user: 'hello', isRepair: false }]);
    expect(answer.choices[0].message.content).toBe('{"a":1}');
    // "syshello" is 8 chars -> 2 tokens; '{"a":1}' is 7 chars -> 2 tokens.
    expect(answer.usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 2 });
  });

  it('checks the key header per protocol and 404s unknown routes', async () => {
    sim = await startLlmSimulator({ requireApiKey: 'k' });
    expect((await post(sim, '/v1/chat/completions', openAiBody, { authorization: 'Bearer k' })).status).toBe(200);
    expect((await post(sim, '/v1/chat/completions', openAiBody)).status).toBe(401);
    expect((await post(sim, '/v1/messages', { messages: [] }, { 'x-api-key': 'k' })).status).toBe(200);
    expect((await post(sim, '/v1/messages', { messages: [] }, { 'x-api-key': 'nope' })).status).toBe(401);
    expect((await post(sim, '/v2/other', {})).status).toBe(404);
    expect(sim.requests.map((r) => r.protocol)).toEqual(['openai', 'openai', 'anthropic', 'anthropic', undefined]);
  });

  it('tracks peak concurrency under latency', async () => {
    sim = await startLlmSimulator({ latencyMs: 50 });
    await Promise.all([1, 2, 3].map(() => post(sim, '/v1/messages', { messages: [] }).then((r) => r.text())));
    expect(sim.maxConcurrent).toBe(3);
    expect(sim.inFlight).toBe(0);
    sim.resetStats();
    expect(sim.maxConcurrent).toBe(0);
    expect(sim.requests).toHaveLength(0);
  });

  it('consumes scripted steps in order, then falls back to respond', async () => {
    sim = await startLlmSimulator();
    sim.enqueue({ status: 429, retryAfter: '3' }, { status: 500 });
    const first = await post(sim, '/v1/messages', { messages: [] });
    expect(first.status).toBe(429);
    expect(first.headers.get('retry-after')).toBe('3');
    expect((await post(sim, '/v1/messages', { messages: [] })).status).toBe(500);
    expect((await post(sim, '/v1/messages', { messages: [] })).status).toBe(200);
    expect(sim.pendingSteps).toBe(0);
  });
});
