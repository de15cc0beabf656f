import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelProviderName } from '../llm.types';

export type LlmProtocol = ModelProviderName;

/** A request as the simulator understood it, handed to `respond` and `usage`. */
export interface SimulatedLlmRequest {
  protocol: LlmProtocol;
  schemaName: string;
  system: string;
  /** The first user message: the task, without the repair turn. */
  user: string;
  /** True on a repair attempt: the conversation already holds an assistant answer. */
  isRepair: boolean;
  body: Record<string, unknown>;
}

/**
 * Overrides the answer to one request, in enqueue order:
 * - `{ status, retryAfter? }`: that HTTP status with the protocol's error body (and Retry-After);
 * - `{ malformedBody: true }`: 200 whose body is not JSON;
 * - `{ cutOff: true }`: 200 announcing the whole answer (Content-Length) but sending only its first
 *   half before the connection closes — a model server that dies mid-answer;
 * - `{ content }`: 200 with this model answer instead of `respond`'s. A string is sent as raw text
 *   (OpenAI content / an Anthropic text block, no tool call), anything else as the JSON answer;
 * - `{ hangMs }`: answer normally, but only after `hangMs` (on top of `latencyMs`);
 * - `{ holdUntil }`: answer normally once the promise settles, so a test decides when an in-flight
 *   call comes back (e.g. after a newer attempt did its work).
 */
export type LlmSimulatorStep =
  | { status: number; retryAfter?: string; message?: string }
  | { malformedBody: true }
  | { cutOff: true }
  | { content: unknown }
  | { hangMs: number }
  | { holdUntil: Promise<unknown> };

export interface LlmSimulatorOptions {
  /** Delay before every answer, or per request (e.g. one review kind slower than the other). Default 0. */
  latencyMs?: number | ((req: SimulatedLlmRequest) => number);
  /** The model's answer: a JSON object (a string is sent as raw, non-JSON text). Default `{}`. */
  respond?: (req: SimulatedLlmRequest) => unknown;
  /** Reported token usage. Default ceil(chars / 4) of the prompt and of the answer text; null: report none (like some local servers). */
  usage?: (req: SimulatedLlmRequest, answerText: string) => { inputTokens: number; outputTokens: number } | null;
  /** When set, requests whose key header (Bearer / x-api-key) differs get 401. */
  requireApiKey?: string;
}

export interface RecordedLlmRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body; undefined when it was not JSON. */
  body: Record<string, unknown> | undefined;
  protocol: LlmProtocol | undefined;
}

/**
 * Base URLs: OpenAI's client takes the prefix before `/chat/completions`, Anthropic's the origin
 * before `/v1/messages`. So `url` (= origin + `/v1`) is the OpenAI baseUrl and `origin` the
 * Anthropic one; `baseUrlFor(provider)` picks the right one.
 */
export interface LlmSimulator {
  /** `http://127.0.0.1:<port>/v1`: the OpenAI-compatible baseUrl. */
  readonly url: string;
  /** `http://127.0.0.1:<port>`: the Anthropic baseUrl. */
  readonly origin: string;
  baseUrlFor(provider: LlmProtocol): string;
  /** Every request that reached the server, in arrival order. */
  readonly requests: RecordedLlmRequest[];
  /** Requests being answered right now, and the peak of that since start (or `resetStats`). */
  readonly inFlight: number;
  readonly maxConcurrent: number;
  enqueue(...steps: LlmSimulatorStep[]): void;
  /** Steps not yet consumed. */
  readonly pendingSteps: number;
  resetStats(): void;
  close(): Promise<void>;
}

/**
 * A real HTTP server speaking the OpenAI Chat Completions and Anthropic Messages protocols, so the
 * clients, the worker's integration tests and benchmarks exercise actual sockets, headers, status
 * codes and timeouts instead of a mocked fetch. Listens on 127.0.0.1 on a free port.
 */
export async function startLlmSimulator(options: LlmSimulatorOptions = {}): Promise<LlmSimulator> {
  const sim = new LlmSimulatorServer(options);
  await sim.listen();
  return sim;
}

class LlmSimulatorServer implements LlmSimulator {
  readonly requests: RecordedLlmRequest[] = [];
  inFlight = 0;
  maxConcurrent = 0;
  private readonly steps: LlmSimulatorStep[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly server: http.Server;
  private port = 0;
  private sequence = 0;

  constructor(private readonly options: LlmSimulatorOptions) {
    this.server = http.createServer((req, res) => {
      this.handle(req, res).catch((err: unknown) => {
        if (!res.headersSent && !res.destroyed) sendJson(res, 500, { error: { message: String(err) } });
      });
    });
  }

  async listen(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }

  get origin(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get url(): string {
    return `${this.origin}/v1`;
  }

  get pendingSteps(): number {
    return this.steps.length;
  }

  baseUrlFor(provider: LlmProtocol): string {
    return provider === 'openai' ? this.url : this.origin;
  }

  enqueue(...steps: LlmSimulatorStep[]): void {
    this.steps.push(...steps);
  }

  resetStats(): void {
    this.requests.length = 0;
    this.maxConcurrent = this.inFlight;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    this.inFlight += 1;
    this.maxConcurrent = Math.max(this.maxConcurrent, this.inFlight);
    let counted = true;
    res.on('close', () => {
      if (!counted) return;
      counted = false;
      this.inFlight -= 1;
    });

    const path = (req.url ?? '/').split('?')[0];
    const protocol = protocolOf(req.method, path);
    const raw = await readBody(req);
    let body: Record<string, unknown> | undefined;
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isRecord(parsed)) body = parsed;
    } catch {
      body = undefined;
    }
    this.requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body, protocol });

    if (!protocol) return sendJson(res, 404, { error: { message: `no route for ${req.method} ${path}` } });
    if (!body) return sendError(res, protocol, 400, 'request body is not a JSON object');
    if (this.options.requireApiKey !== undefined && apiKeyOf(protocol, req.headers) !== this.options.requireApiKey) {
      return sendError(res, protocol, 401, 'invalid API key');
    }

    const step = this.steps.shift();
    const simulated = describe(protocol, body);
    const latency = this.options.latencyMs;
    if (!(await this.wait(typeof latency === 'function' ? latency(simulated) : (latency ?? 0), res))) return;
    if (step && 'hangMs' in step && !(await this.wait(step.hangMs, res))) return;
    if (step && 'holdUntil' in step) {
      await step.holdUntil.catch(() => undefined);
      if (res.destroyed) return;
    }

    if (step && 'status' in step) {
      const headers = step.retryAfter !== undefined ? { 'retry-after': step.retryAfter } : undefined;
      return sendError(res, protocol, step.status, step.message ?? `simulated HTTP ${step.status}`, headers);
    }
    if (step && 'malformedBody' in step) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [ this is not json');
      return;
    }
    const answer = step && 'content' in step ? step.content : (this.options.respond ?? (() => ({})))(simulated);
    const answerText = typeof answer === 'string' ? answer : JSON.stringify(answer ?? null);
    const reported = this.options.usage ? this.options.usage(simulated, answerText) : undefined;
    const usage =
      reported === undefined
        ? { inputTokens: Math.ceil(promptChars(protocol, body) / 4), outputTokens: Math.ceil(answerText.length / 4) }
        : reported;
    this.sequence += 1;
    const reply =
      protocol === 'openai'
        ? openAiAnswer(this.sequence, body, answerText, usage)
        : anthropicAnswer(this.sequence, body, simulated.schemaName, answer, usage);
    if (step && 'cutOff' in step) {
      const full = Buffer.from(JSON.stringify(reply));
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(full.length) });
      res.write(full.subarray(0, Math.floor(full.length / 2)), () => res.destroy());
      return;
    }
    sendJson(res, 200, reply);
  }

  /** Resolves true after `ms`, or false as soon as the client has gone (timeout, abort, close). */
  private wait(ms: number, res: http.ServerResponse): Promise<boolean> {
    if (ms <= 0) return Promise.resolve(!res.destroyed);
    return new Promise<boolean>((resolve) => {
      const onClose = (): void => {
        clearTimeout(timer);
        this.timers.delete(timer);
        resolve(false);
      };
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        res.off('close', onClose);
        resolve(!res.destroyed);
      }, ms);
      this.timers.add(timer);
      res.once('close', onClose);
    });
  }
}

function protocolOf(method: string | undefined, path: string): LlmProtocol | undefined {
  if (method !== 'POST') return undefined;
  if (path === '/v1/chat/completions' || path === '/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  return undefined;
}

function apiKeyOf(protocol: LlmProtocol, headers: http.IncomingHttpHeaders): string | undefined {
  if (protocol === 'anthropic') {
    const key = headers['x-api-key'];
    return typeof key === 'string' ? key : undefined;
  }
  const match = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return match?.[1];
}

function describe(protocol: LlmProtocol, body: Record<string, unknown>): SimulatedLlmRequest {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const firstUser = messages.find((m) => m['role'] === 'user');
  const isRepair = messages.some((m) => m['role'] === 'assistant');
  if (protocol === 'openai') {
    const format = isRecord(body['response_format']) ? body['response_format'] : {};
    const jsonSchema = isRecord(format['json_schema']) ? format['json_schema'] : {};
    const system = messages.find((m) => m['role'] === 'system');
    return {
      protocol,
      schemaName: String(jsonSchema['name'] ?? ''),
      system: textOf(system?.['content']),
      user: textOf(firstUser?.['content']),
      isRepair,
      body,
    };
  }
  const toolChoice = isRecord(body['tool_choice']) ? body['tool_choice'] : {};
  return {
    protocol,
    schemaName: String(toolChoice['name'] ?? ''),
    system: textOf(body['system']),
    user: textOf(firstUser?.['content']),
    isRepair,
    body,
  };
}

/** Message content is a string or (Anthropic) a list of blocks; text blocks are what a model reads. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => (isRecord(block) && typeof block['text'] === 'string' ? block['text'] : JSON.stringify(block)))
    .join('\n');
}

function promptChars(protocol: LlmProtocol, body: Record<string, unknown>): number {
  const messages = Array.isArray(body['messages']) ? body['messages'].filter(isRecord) : [];
  const system = protocol === 'anthropic' ? textOf(body['system']).length : 0;
  return messages.reduce((sum, m) => sum + textOf(m['content']).length, system);
}

function openAiAnswer(
  seq: number,
  request: Record<string, unknown>,
  content: string,
  usage: { inputTokens: number; outputTokens: number } | null,
): Record<string, unknown> {
  return {
    id: `chatcmpl-sim-${seq}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: request['model'],
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, finish_reason: 'stop' }],
    ...(usage
      ? { usage: { prompt_tokens: usage.inputTokens, completion_tokens: usage.outputTokens, total_tokens: usage.inputTokens + usage.outputTokens } }
      : {}),
  };
}

function anthropicAnswer(
  seq: number,
  request: Record<string, unknown>,
  schemaName: string,
  answer: unknown,
  usage: { inputTokens: number; outputTokens: number } | null,
): Record<string, unknown> {
  const content =
    typeof answer === 'string'
      ? [{ type: 'text', text: answer }]
      : [{ type: 'tool_use', id: `toolu_sim_${seq}`, name: schemaName, input: answer }];
  return {
    id: `msg_sim_${seq}`,
    type: 'message',
    role: 'assistant',
    model: request['model'],
    content,
    stop_reason: typeof answer === 'string' ? 'end_turn' : 'tool_use',
    stop_sequence: null,
    ...(usage ? { usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } } : {}),
  };
}

function sendError(
  res: http.ServerResponse,
  protocol: LlmProtocol,
  status: number,
  message: string,
  headers?: Record<string, string>,
): void {
  const body =
    protocol === 'openai'
      ? { error: { message, type: 'simulated_error', code: status } }
      : { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } };
  sendJson(res, status, body, headers);
}

function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
