import type { StructuredRequest } from './llm.types';
import {
  StructuredLlmClient,
  isRecord,
  malformed,
  repairInstruction,
  stripTrailingSlash,
  tokenCount,
  type HttpCall,
  type LlmClientConfig,
  type ModelAnswer,
  type RepairTurn,
} from './structured-call';

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/** The assistant message as OpenAI wants it back in the repair attempt. */
interface OpenAiAssistantTurn {
  role: 'assistant';
  content: string;
}

/**
 * OpenAI Chat Completions with `response_format: json_schema` (strict). Any OpenAI-compatible server
 * works (Ollama, vLLM, llama.cpp): `baseUrl` is the prefix before `/chat/completions`, `/v1` included.
 */
export class OpenAiClient extends StructuredLlmClient<OpenAiAssistantTurn> {
  readonly provider = 'openai' as const;
  private readonly endpoint: string;

  constructor(config: LlmClientConfig) {
    super(config);
    this.endpoint = `${stripTrailingSlash(config.baseUrl ?? OPENAI_DEFAULT_BASE_URL)}/chat/completions`;
  }

  protected buildCall(request: StructuredRequest<unknown>, maxTokens: number, repair?: RepairTurn<OpenAiAssistantTurn>): HttpCall {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (this.config.apiKey) headers['authorization'] = `Bearer ${this.config.apiKey}`;
    const messages: { role: string; content: string }[] = [
      { role: 'system', content: request.system },
      { role: 'user', content: request.user },
    ];
    if (repair) messages.push(repair.previous, { role: 'user', content: repairInstruction(repair.error) });
    return {
      url: this.endpoint,
      headers,
      body: {
        model: this.model,
        messages,
        response_format: {
          type: 'json_schema',
          json_schema: { name: request.schemaName, schema: request.schema, strict: true },
        },
        max_tokens: maxTokens,
      },
    };
  }

  protected readAnswer(body: unknown): ModelAnswer<OpenAiAssistantTurn> {
    const label = `${this.provider} ${this.model}`;
    if (!isRecord(body) || !Array.isArray(body['choices'])) throw malformed(label, 'no choices array');
    const choice: unknown = body['choices'][0];
    if (!isRecord(choice) || !isRecord(choice['message'])) throw malformed(label, 'no choices[0].message');
    const message = choice['message'];

    const usageField = body['usage'];
    const inputTokens = isRecord(usageField) ? tokenCount(usageField['prompt_tokens']) : undefined;
    const outputTokens = isRecord(usageField) ? tokenCount(usageField['completion_tokens']) : undefined;
    const usage = inputTokens !== undefined && outputTokens !== undefined ? { inputTokens, outputTokens } : undefined;

    const content = message['content'];
    if (typeof content !== 'string') {
      // Strict structured output answers a refusal in `refusal` with null content.
      const refusal = typeof message['refusal'] === 'string' ? `the model refused: ${message['refusal']}` : 'the answer has no content';
      return { usage, decoded: { ok: false, error: refusal }, turn: { role: 'assistant', content: '' } };
    }
    const turn: OpenAiAssistantTurn = { role: 'assistant', content };
    try {
      return { usage, decoded: { ok: true, value: JSON.parse(content) as unknown }, turn };
    } catch (err) {
      const cutOff = choice['finish_reason'] === 'length' ? ' (cut off at max_tokens)' : '';
      const reason = err instanceof Error ? err.message : String(err);
      return { usage, decoded: { ok: false, error: `the answer is not valid JSON${cutOff}: ${reason}` }, turn };
    }
  }
}
