/**
 * Model-provider vocabulary shared by every spendful stage. The `extractive` provider has no client:
 * stages run their extractive rules instead (they select and order the user's own facts and never
 * generate new ones), so `LlmClient` only covers the network providers.
 */
export type ModelProviderName = 'openai' | 'anthropic';

/** The product lane a call is charged to; GET /v1/spend reports by lane. */
export type SpendLane = 'score' | 'tailor' | 'cover' | 'review' | 'compensation';
export const SPEND_LANES: readonly SpendLane[] = ['score', 'tailor', 'cover', 'review', 'compensation'];

export type Effort = 'low' | 'medium' | 'high';

/** USD per million tokens, per model (config.json `llm.prices`). */
export interface ModelPrice {
  input_usd_per_mtok: number;
  output_usd_per_mtok: number;
}
export type PriceTable = Record<string, ModelPrice>;

/** How a recorded attempt ended (llm_spend.outcome). */
export type SpendOutcome = 'ok' | 'invalid_output' | 'http_error' | 'unanswered' | 'unknown';

/** One HTTP attempt's usage, recorded whether or not its output was usable. */
export interface LlmUsage {
  provider: ModelProviderName;
  model: string;
  lane: SpendLane;
  effort: Effort;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /**
   * ok: parsed and valid; invalid_output: the model answered but the answer failed validation;
   * http_error: the server answered an error status (no tokens billed); unanswered: the request was
   * sent but no readable answer came back (cancelled or timed out in flight, connection lost), so it
   * is charged at its worst case. unknown: never reported by a client — the ledger's row for a call
   * whose worker died mid-call (see SpendLedgerRepository), charged at its reservation's estimate.
   */
  outcome: SpendOutcome;
  /** The server reported no usage, so the tokens are estimated (from the text, or the worst case). */
  estimated?: boolean;
}

/**
 * Called once per HTTP attempt that reached the server (so the ledger's call count is the number of
 * requests), before the client returns or throws.
 */
export type UsageSink = (usage: LlmUsage) => Promise<void>;

export interface StructuredRequest<T> {
  lane: SpendLane;
  effort?: Effort;
  system: string;
  user: string;
  /** JSON-schema name and object schema for structured output. */
  schemaName: string;
  schema: Record<string, unknown>;
  /** Validates the decoded JSON; throws an Error whose message says what is wrong (fed to the repair retry). */
  parse(value: unknown): T;
  maxOutputTokens?: number;
  /** Aborts the HTTP call; the client throws LlmError code llm_cancelled. */
  signal?: AbortSignal;
}

export interface StructuredResult<T> {
  value: T;
  usage: LlmUsage[];
}

export interface LlmClient {
  readonly provider: ModelProviderName;
  readonly model: string;
  generate<T>(request: StructuredRequest<T>): Promise<StructuredResult<T>>;
  /** A conservative upper bound of one call's cost, for spend admission before the call. */
  estimateCostUsd(request: Pick<StructuredRequest<unknown>, 'system' | 'user' | 'maxOutputTokens'>): number;
}
