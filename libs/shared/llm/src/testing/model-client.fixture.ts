import { createLlmClient, type LlmClientOptions } from '../llm-client.factory';
import type { LlmClient, StructuredRequest } from '../llm.types';
import { startLlmSimulator, type LlmSimulator } from './llm-simulator';

/**
 * Test support for the model clients' specs (OpenAI-compatible, Anthropic): both drive the same
 * one-field structured request against the LLM simulator, and differ only in the wire format.
 */

/** A structured request for `{ title: string }`; its parse error is the repair instruction's reason. */
export function titleRequest(
  shape: Pick<StructuredRequest<unknown>, 'lane' | 'system' | 'user' | 'schemaName' | 'schema' | 'maxOutputTokens'>,
): StructuredRequest<{ title: string }> {
  return {
    ...shape,
    parse: (value) => {
      const title = (value as { title?: unknown }).title;
      if (typeof title !== 'string') throw new Error('title must be a string');
      return { title };
    },
  };
}

/** A fresh simulator per test answering `{ title }`; the returned getter is the current one. */
export function simulatorPerTest(title: string): () => LlmSimulator {
  let sim: LlmSimulator | undefined;
  beforeEach(async () => {
    sim = await startLlmSimulator({ respond: () => ({ title }) });
  });
  afterEach(() => sim?.close());
  return () => {
    if (!sim) throw new Error('the simulator starts in beforeEach');
    return sim;
  };
}

/** A client with a short timeout whose usage goes nowhere. */
export function simulatedClient(options: Pick<LlmClientOptions, 'provider' | 'model' | 'baseUrl' | 'apiKey' | 'prices'>): LlmClient {
  return createLlmClient({ ...options, timeoutMs: 2000, onUsage: () => Promise.resolve() });
}
