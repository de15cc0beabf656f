// A throwaway jobctrl stack, started as a user starts it: `npm start` (tools/stack/start.js — its own
// embedded Temporal dev server, the compiled worker and API, the built UI) on a temp dir with a
// config.json of test settings and free loopback ports. One helper for every suite that needs a whole
// stack (stack/supervision e2e, the worker's secrets e2e, the web e2e, the fault suite), so a new
// setting the stack needs in tests (e.g. allowed_private_hosts) is added once.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { type GroupProcess, pidAlive, processTree, spawnGroup, waitFor } from '@jobctrl/tools/processes';
import { freePort } from '@jobctrl/tools/temporal';

export const root = path.resolve(__dirname, '..', '..', '..', '..');

/**
 * The settings of a test stack: small and fast (2 slots, a heartbeat a second), no host spacing, and
 * loopback allowed — the simulators listen there, which the crawler refuses unless listed (#15).
 */
export const TEST_STACK_SETTINGS: Readonly<Record<string, unknown>> = {
  app_dir: 'data',
  worker_activity_slots: 2,
  worker_heartbeat_interval_seconds: 1,
  worker_heartbeat_stale_seconds: 5,
  host_min_spacing_ms: 0,
  host_max_in_flight: 4,
  allowed_private_hosts: ['127.0.0.1'],
};

/**
 * Environment of a user's shell on `configPath`, `extra` over it: none of the test run's Temporal
 * settings (the stack starts its own dev server), no ts-node settings of a runner under ts-node (the
 * parts run compiled), no libuv pool size (the worker sizes it from its slots).
 */
export function userEnv(configPath: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('TEMPORAL_') || key.startsWith('TS_NODE_') || key === 'UV_THREADPOOL_SIZE') delete env[key];
  return { ...env, ...extra, JOBCTRL_CONFIG: configPath };
}

export interface StackStartOptions {
  /** Extra environment (secrets, test knobs such as JOBCTRL_TEST_DEV_SERVER_RESTART_DELAY_MS). */
  env?: NodeJS.ProcessEnv;
  /** Grace between SIGTERM and SIGKILL when the stack is stopped. */
  graceMs?: number;
  /** How long the start may go without progress (output, log growth). Default 180 s: a start builds what is stale. */
  idleTimeoutMs?: number;
}

/** A request to the stack's API, its body as JSON. */
export interface JsonRequest {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}

export class ThrowawayStack {
  readonly dir: string;
  readonly configPath: string;
  /** app_dir of the config: the database, the logs, Temporal's history. */
  readonly appDir: string;
  apiPort = 0;
  temporalPort = 0;
  protected proc: GroupProcess | null = null;
  /** Output of the earlier starts of this stack, in order. */
  private earlierOutput = '';

  /** A new temp dir (`<tmp>/<prefix>XXXXXX`); nothing written or started yet. */
  constructor(prefix: string) {
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    this.configPath = path.join(this.dir, 'config.json');
    this.appDir = path.join(this.dir, 'data');
  }

  /** config.json: the test settings on two free ports, `settings` over them. */
  async writeConfig(settings: Record<string, unknown> = {}): Promise<this> {
    this.apiPort = await freePort();
    this.temporalPort = await freePort();
    fs.writeFileSync(this.configPath, JSON.stringify({ ...TEST_STACK_SETTINGS, api_port: this.apiPort, temporal_dev_server_port: this.temporalPort, ...settings }));
    return this;
  }

  /** http://127.0.0.1:<port> — the UI at /, the API under /v1. */
  get url(): string {
    return `http://127.0.0.1:${this.apiPort}`;
  }

  /** The `npm start` of the last start. */
  get process(): GroupProcess {
    if (!this.proc) throw new Error('the stack was not started');
    return this.proc;
  }

  /** What every start of this stack printed, in order. */
  output(): string {
    return this.earlierOutput + (this.proc?.output() ?? '');
  }

  /** Sizes of the stack's log files: they grow while it starts up, even before the API answers. */
  logSizes(): number[] {
    const logDir = path.join(this.appDir, 'logs');
    return fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => fs.statSync(path.join(logDir, f)).size) : [];
  }

  /**
   * `npm start` on the config in a process group of its own (stopping it, or the test process dying,
   * stops everything under it), resolved once it printed its ready line. The wait follows progress
   * (output, log growth); a start that gave up fails at once with its output.
   */
  async start(options: StackStartOptions = {}): Promise<GroupProcess> {
    if (this.proc) this.earlierOutput += this.proc.output();
    const proc = spawnGroup(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env: userEnv(this.configPath, options.env), graceMs: options.graceMs });
    this.proc = proc;
    await Promise.race([
      waitFor(() => (proc.output().includes('[jobctrl] ready') ? { done: true } : { progress: [proc.output().length, this.logSizes()] }), {
        what: 'the "ready" line of npm start',
        idleTimeoutMs: options.idleTimeoutMs ?? 180_000,
        intervalMs: 200,
      }),
      proc.exited.then((code) => Promise.reject(new Error(`npm start exited (${code}) before it was ready`))),
    ]).catch(async (err: Error) => {
      await this.stop();
      throw new Error(`${err.message}\n--- npm start output (end) ---\n${proc.output().slice(-8000)}`);
    });
    return proc;
  }

  /** Whether the last `npm start` (the supervisor) still runs. */
  running(): boolean {
    return this.proc !== null && pidAlive(this.proc.pid);
  }

  /** Stops the stack; resolves once no process of its tree (parts, dev server, Chromium) runs. */
  async stop(graceMs?: number): Promise<void> {
    if (!this.proc) return;
    const tree = processTree(this.proc.pid).map((p) => p.pid);
    await this.proc.stop(graceMs);
    await waitFor(() => (tree.some(pidAlive) ? { progress: tree.filter(pidAlive) } : { done: true }), { what: 'the stack processes to exit', idleTimeoutMs: 20_000 });
  }

  /** Deletes the temp dir (stop first). */
  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  /** A request to the stack (30 s cap: an answer that slow is a failure, not a wait). */
  api(p: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.url}${p}`, { signal: AbortSignal.timeout(30_000), ...init });
  }

  /** The API's answer as parsed JSON (null when empty); throws on a non-2xx with the body. */
  async json<T = unknown>(p: string, init: JsonRequest = {}): Promise<T> {
    const method = init.method ?? 'GET';
    const headers = init.body === undefined ? { ...init.headers } : { 'content-type': 'application/json', ...init.headers };
    const res = await this.api(p, { method, headers, body: init.body === undefined ? undefined : JSON.stringify(init.body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${p}: HTTP ${res.status} ${text.slice(0, 500)}`);
    return (text ? JSON.parse(text) : null) as T;
  }
}

/** A stack with `settings` over the test settings, started; on a failed start, stopped and removed. */
export async function startThrowawayStack(prefix: string, settings: Record<string, unknown> = {}, options: StackStartOptions = {}): Promise<ThrowawayStack> {
  const stack = new ThrowawayStack(prefix);
  try {
    await stack.writeConfig(settings);
    await stack.start(options);
  } catch (err) {
    stack.remove();
    throw err;
  }
  return stack;
}

/** Stops and removes a stack (either step may fail; both are tried). */
export async function disposeStack(stack: ThrowawayStack | undefined): Promise<void> {
  if (!stack) return;
  try {
    await stack.stop();
  } finally {
    stack.remove();
  }
}
