import { LlmError } from './llm.errors';
import { postJson, type HttpCall } from './llm-http.transport';
import { DEFAULT_MAX_OUTPUT_TOKENS, costUsd, estimateCostUsd, worstCaseTokens } from './llm.pricing';
import type {
  Effort,
  LlmClient,
  LlmUsage,
  ModelProviderName,
  PriceTable,
  StructuredRequest,
  StructuredResult,
  UsageSink,
} from './llm.types';

export type { HttpCall } from './llm-http.transport';

/** What every provider client needs; the factory adds `provider` to pick the class. */
export interface LlmClientConfig {
  model: string;
  /** Provider default when omitted; a trailing slash is ignored. */
  baseUrl?: string;
  /** Sent only when given: local servers such as Ollama need none. */
  apiKey?: string;
  prices: PriceTable;
  /** Budget of each HTTP attempt (the repair retry gets its own). */
  timeoutMs: number;
  onUsage: UsageSink;
  /** Recorded in usage, never sent on the wire. Default 'medium'. */
  defaultEffort?: Effort;
}

export interface TokenCounts {
  inputTokens: number;
  outputTokens: number;
}

/** One decoded 2xx answer, protocol-neutral. */
export interface ModelAnswer<Turn> {
  /** Absent when the server did not report usage. */
  usage?: TokenCounts;
  /** The model's JSON value, or why none could be decoded from the answer. */
  decoded: { ok: true; value: unknown } | { ok: false; error: string };
  /** The assistant turn in the protocol's own shape, replayed in the repair attempt. */
  turn: Turn;
}

export interface RepairTurn<Turn> {
  previous: Turn;
  /** Says what was wrong; goes to the model in `repairInstruction`. */
  error: string;
}

const MAX_ATTEMPTS = 2;

export function repairInstruction(error: string): string {
  return `Your previous answer was invalid: ${error.replace(/[.\s]+$/, '')}. Answer again with JSON that matches the schema.`;
}

export function stripTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/**
 * The structured-output loop both providers share: one attempt, and when the answer does not decode
 * or fails `request.parse`, one repair attempt that shows the model its answer and the error. Each
 * attempt that reached the server is charged to `onUsage` (see chargeFailedAttempt for the ones with
 * no usable answer) before the call returns or throws, so a crash right after cannot lose spend that
 * was already incurred. Subclasses only translate the wire format.
 */
export abstract class StructuredLlmClient<Turn> implements LlmClient {
  abstract readonly provider: ModelProviderName;
  readonly model: string;
  protected readonly config: LlmClientConfig;

  protected constructor(config: LlmClientConfig) {
    this.config = config;
    this.model = config.model;
  }

  /** Builds one attempt's HTTP request; `repair` is set on the second attempt. */
  protected abstract buildCall(request: StructuredRequest<unknown>, maxTokens: number, repair?: RepairTurn<Turn>): HttpCall;

  /** Decodes a 2xx body; throws `LlmError` llm_server when the envelope itself is malformed. */
  protected abstract readAnswer(body: unknown, request: StructuredRequest<unknown>): ModelAnswer<Turn>;

  async generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>> {
    const effort = request.effort ?? this.config.defaultEffort ?? 'medium';
    const maxTokens = request.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
    const label = `${this.provider} ${this.model}`;
    const usages: LlmUsage[] = [];
    let repair: RepairTurn<Turn> | undefined;

    for (let attempt = 1; ; attempt += 1) {
      const call = this.buildCall(request, maxTokens, repair);
      let body: unknown;
      let answer: ModelAnswer<Turn>;
      try {
        body = await postJson(call, { timeoutMs: this.config.timeoutMs, signal: request.signal, label });
        answer = this.readAnswer(body, request);
      } catch (err) {
        await this.chargeFailedAttempt(err, request, effort, repair);
        throw err;
      }

      let outcome: { ok: true; value: T } | { ok: false; error: string };
      if (answer.decoded.ok) {
        try {
          outcome = { ok: true, value: request.parse(answer.decoded.value) };
        } catch (err) {
          outcome = { ok: false, error: err instanceof Error ? err.message : String(err) };
        }
      } else {
        outcome = answer.decoded;
      }

      // A server that reports no usage (some local and proxy servers) is still charged: the spend
      // ceiling must hold whatever the server says, so the tokens are estimated from the text.
      const tokens = answer.usage ?? estimateTokens(call.body, body);
      const usage = { ...this.usageOf(request, effort, tokens, outcome.ok ? 'ok' : 'invalid_output'), ...(answer.usage ? {} : { estimated: true }) };
      usages.push(usage);
      await this.config.onUsage(usage);

      if (outcome.ok) return { value: outcome.value, usage: usages };
      if (attempt >= MAX_ATTEMPTS) {
        throw new LlmError(
          'llm_invalid_output',
          `${label}: output still invalid after a repair retry: ${outcome.error}`,
        );
      }
      repair = { previous: answer.turn, error: outcome.error };
    }
  }

  /**
   * Every request that reached the server is a call in the ledger: an error status is charged
   * nothing (providers bill no tokens for it); a request sent but never readably answered — the
   * review pair cancelled it, it timed out, the connection dropped — may still be generating on the
   * server and is billed there, so it is charged the worst case its admission reserved. A request
   * that never left (aborted before sending, connection refused) is not a call.
   */
  private async chargeFailedAttempt(err: unknown, request: StructuredRequest<unknown>, effort: Effort, repair: RepairTurn<Turn> | undefined): Promise<void> {
    if (!(err instanceof LlmError)) return;
    if (err.unanswered) {
      const repairChars = repair ? JSON.stringify(repair.previous ?? '').length + repairInstruction(repair.error).length : 0;
      await this.config.onUsage({ ...this.usageOf(request, effort, worstCaseTokens(request, repairChars), 'unanswered'), estimated: true });
    } else if (err.status !== undefined) {
      await this.config.onUsage(this.usageOf(request, effort, { inputTokens: 0, outputTokens: 0 }, 'http_error'));
    }
  }

  estimateCostUsd(request: Pick<StructuredRequest<unknown>, 'system' | 'user' | 'maxOutputTokens'>): number {
    return estimateCostUsd(this.config.prices, this.model, request);
  }

  private usageOf(
    request: StructuredRequest<unknown>,
    effort: Effort,
    tokens: TokenCounts,
    outcome: LlmUsage['outcome'],
  ): LlmUsage {
    return {
      provider: this.provider,
      model: this.model,
      lane: request.lane,
      effort,
      inputTokens: tokens.inputTokens,
      outputTokens: tokens.outputTokens,
      costUsd: costUsd(this.config.prices, this.model, tokens.inputTokens, tokens.outputTokens),
      outcome,
    };
  }
}

/** About four characters a token: the request as sent, and the whole answer body. */
function estimateTokens(requestBody: unknown, answerBody: unknown): TokenCounts {
  const chars = (v: unknown) => (typeof v === 'string' ? v.length : JSON.stringify(v ?? '').length);
  return { inputTokens: Math.ceil(chars(requestBody) / 4), outputTokens: Math.ceil(chars(answerBody) / 4) };
}

/** Reads a non-negative integer token count, or undefined when the field is missing or bogus. */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function malformed(label: string, why: string): LlmError {
  // The model may have run behind whatever mangled the envelope: unreadable, so charged as unanswered.
  return new LlmError('llm_server', `${label} answered HTTP 200 with a malformed response: ${why}`, { status: 200, unanswered: true });
}
