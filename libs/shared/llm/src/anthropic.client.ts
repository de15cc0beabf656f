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

export const ANTHROPIC_DEFAULT_BASE_URL = 'https://api.anthropic.com';
export const ANTHROPIC_VERSION = '2023-06-01';

/** The assistant's content blocks, replayed verbatim in the repair attempt. */
type AnthropicAssistantTurn = unknown[];

/**
 * Anthropic Messages API. Structured output is a forced tool call: the schema is the tool's
 * input_schema and tool_choice names it, so the answer arrives as the tool_use block's `input`.
 * `baseUrl` is the origin before `/v1/messages`.
 */
export class AnthropicClient extends StructuredLlmClient<AnthropicAssistantTurn> {
  readonly provider = 'anthropic' as const;
  private readonly endpoint: string;

  constructor(config: LlmClientConfig) {
    super(config);
    this.endpoint = `${stripTrailingSlash(config.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL)}/v1/messages`;
  }

  protected buildCall(
    request: StructuredRequest<unknown>,
    maxTokens: number,
    repair?: RepairTurn<AnthropicAssistantTurn>,
  ): HttpCall {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'anthropic-version': ANTHROPIC_VERSION,
    };
    if (this.config.apiKey) headers['x-api-key'] = this.config.apiKey;
    const messages: { role: 'user' | 'assistant'; content: unknown }[] = [{ role: 'user', content: request.user }];
    if (repair) {
      // The API refuses an empty assistant turn; an answer with no blocks is replayed as a placeholder.
      const previous = repair.previous.length > 0 ? repair.previous : [{ type: 'text', text: '(no answer)' }];
      messages.push({ role: 'assistant', content: previous }, { role: 'user', content: repairContent(repair) });
    }
    return {
      url: this.endpoint,
      headers,
      body: {
        model: this.model,
        system: request.system,
        max_tokens: maxTokens,
        messages,
        tools: [
          {
            name: request.schemaName,
            description: `Answer with a ${request.schemaName} object that matches the input schema.`,
            input_schema: request.schema,
          },
        ],
        tool_choice: { type: 'tool', name: request.schemaName },
      },
    };
  }

  protected readAnswer(body: unknown, request: StructuredRequest<unknown>): ModelAnswer<AnthropicAssistantTurn> {
    const label = `${this.provider} ${this.model}`;
    if (!isRecord(body) || !Array.isArray(body['content'])) throw malformed(label, 'no content array');
    const blocks: unknown[] = body['content'];

    const usageField = body['usage'];
    const inputTokens = isRecord(usageField) ? tokenCount(usageField['input_tokens']) : undefined;
    const outputTokens = isRecord(usageField) ? tokenCount(usageField['output_tokens']) : undefined;
    const usage = inputTokens !== undefined && outputTokens !== undefined ? { inputTokens, outputTokens } : undefined;

    const toolUse = blocks.find(
      (block): block is Record<string, unknown> =>
        isRecord(block) && block['type'] === 'tool_use' && block['name'] === request.schemaName,
    );
    if (toolUse && isRecord(toolUse['input'])) {
      return { usage, decoded: { ok: true, value: toolUse['input'] }, turn: blocks };
    }
    const cutOff = body['stop_reason'] === 'max_tokens' ? ' (cut off at max_tokens)' : '';
    const why = toolUse ? 'the tool_use input is not an object' : `the answer has no ${request.schemaName} tool_use block`;
    return { usage, decoded: { ok: false, error: `${why}${cutOff}` }, turn: blocks };
  }
}

/**
 * The API requires every tool_use block to be answered by a tool_result in the next user turn, so
 * the repair instruction travels as an error tool_result; without a tool call it is plain text.
 */
function repairContent(repair: RepairTurn<AnthropicAssistantTurn>): string | unknown[] {
  const instruction = repairInstruction(repair.error);
  const toolUseIds = repair.previous
    .filter((block): block is Record<string, unknown> => isRecord(block) && block['type'] === 'tool_use')
    .map((block) => block['id'])
    .filter((id): id is string => typeof id === 'string');
  if (toolUseIds.length === 0) return instruction;
  return toolUseIds.map((id) => ({ type: 'tool_result', tool_use_id: id, is_error: true, content: instruction }));
}
