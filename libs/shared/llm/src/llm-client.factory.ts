import { AnthropicClient } from './anthropic.client';
import { LlmError } from './llm.errors';
import type { LlmClient, ModelProviderName } from './llm.types';
import { OpenAiClient } from './openai.client';
import type { LlmClientConfig } from './structured-call';

export interface LlmClientOptions extends LlmClientConfig {
  provider: ModelProviderName;
}

/**
 * Builds the client for a configured provider. Bad options throw `LlmError` llm_bad_request, which
 * is non-retryable: a client built inside an activity must not retry a configuration mistake.
 */
export function createLlmClient(options: LlmClientOptions): LlmClient {
  const { provider, ...config } = options;
  if (typeof config.model !== 'string' || config.model.trim() === '') {
    throw new LlmError('llm_bad_request', `${provider}: model must be a non-empty string`);
  }
  if (!Number.isFinite(config.timeoutMs) || config.timeoutMs <= 0) {
    throw new LlmError('llm_bad_request', `${provider} ${config.model}: timeoutMs must be a positive number`);
  }
  switch (provider) {
    case 'openai':
      return new OpenAiClient(config);
    case 'anthropic':
      return new AnthropicClient(config);
    default:
      throw new LlmError('llm_bad_request', `unknown LLM provider: ${String(provider satisfies never)}`);
  }
}
