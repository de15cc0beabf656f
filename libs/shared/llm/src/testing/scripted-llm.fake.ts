import type { LlmClient, LlmUsage, StructuredRequest, StructuredResult } from '../llm.types';

/**
 * An in-memory LlmClient for unit tests of prompt/validation code (tailoring, cover letters, model
 * scoring). It answers from a script, one entry per `generate` call, and runs the request's own
 * `parse` on the answer, so a spec exercises the real validation; a parse failure is thrown as the
 * real client would after its repair attempt. The HTTP clients are tested in @jobctrl/shared/llm.
 * It lives beside the protocol simulator, so the domain libs do not each copy it.
 */
export type ScriptedAnswer = unknown | ((request: StructuredRequest<unknown>) => unknown);

export interface ScriptedLlmClient extends LlmClient {
  /** Every request received, in order. */
  readonly requests: Array<StructuredRequest<unknown>>;
}

export function scriptedLlmClient(answers: readonly ScriptedAnswer[]): ScriptedLlmClient {
  const requests: Array<StructuredRequest<unknown>> = [];
  return {
    provider: 'openai',
    model: 'scripted-test-model',
    requests,
    async generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
      requests.push(request as StructuredRequest<unknown>);
      if (requests.length > answers.length) throw new Error(`scripted client: no answer for call ${requests.length}`);
      const scripted = answers[requests.length - 1];
      const raw = typeof scripted === 'function' ? (scripted as (r: StructuredRequest<unknown>) => unknown)(request as StructuredRequest<unknown>) : scripted;
      const usage: LlmUsage = {
        provider: 'openai',
        model: 'scripted-test-model',
        lane: request.lane,
        effort: request.effort ?? 'medium',
        inputTokens: Math.ceil((request.system.length + request.user.length) / 4),
        outputTokens: Math.ceil(JSON.stringify(raw ?? null).length / 4),
        costUsd: 0,
        outcome: 'ok',
      };
      return { value: request.parse(raw), usage: [usage] };
    },
    estimateCostUsd: () => 0,
  };
}
