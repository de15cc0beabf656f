import type { PriceTable, StructuredRequest } from './llm.types';

/** Sent as max_tokens when a request does not set maxOutputTokens, and assumed by the estimate. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;

/**
 * Cost of one call in USD. A model missing from the price table costs 0: local servers (Ollama,
 * llama.cpp, the simulator) are free, and config lists prices only for the paid models it uses.
 */
export function costUsd(prices: PriceTable, model: string, inputTokens: number, outputTokens: number): number {
  // An own-property lookup, so a model named like an Object.prototype member cannot pick up garbage.
  const price = Object.prototype.hasOwnProperty.call(prices, model) ? prices[model] : undefined;
  if (!price) return 0;
  return (inputTokens * price.input_usd_per_mtok + outputTokens * price.output_usd_per_mtok) / 1_000_000;
}

/**
 * Upper bound of one attempt's tokens: tokenizers average ~4 characters per token on English text,
 * so ceil(chars / 3) over-counts the input on purpose, and the output is the full max_tokens the
 * attempt may use. `extraChars` is what a repair attempt sends on top (the previous answer and the
 * repair instruction).
 */
export function worstCaseTokens(
  request: Pick<StructuredRequest<unknown>, 'system' | 'user' | 'maxOutputTokens'>,
  extraChars = 0,
): { inputTokens: number; outputTokens: number } {
  return {
    inputTokens: Math.ceil((request.system.length + request.user.length + extraChars) / 3),
    outputTokens: request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
  };
}

/**
 * Upper bound of one call's cost for spend admission (`worstCaseTokens` at the model's price). The
 * repair retry is a separate attempt and is not included here.
 */
export function estimateCostUsd(
  prices: PriceTable,
  model: string,
  request: Pick<StructuredRequest<unknown>, 'system' | 'user' | 'maxOutputTokens'>,
): number {
  const { inputTokens, outputTokens } = worstCaseTokens(request);
  return costUsd(prices, model, inputTokens, outputTokens);
}
