// The stack a fault case runs against: `npm start` itself (tools/stack/start.js — the compiled worker
// and API, the embedded Temporal dev server with its history on disk), on a throwaway app dir and
// free loopback ports. The suite only finds the parts' pids and kills them; who brings a part back is
// the start's business: once start.js supervises its parts (issue #15), it restarts them and this
// wrapper just waits for health; a start that instead stops everything when a part dies (or leaves a
// degraded stack running) is restarted here, and the row says which of the two recovered it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { GroupProcess, pidAlive, processTree, spawnGroup, waitFor } from '@jobctrl/tools/processes';
import { freePort } from '@jobctrl/tools/temporal';

const root = path.resolve(__dirname, '..', '..');

export type Part = 'worker' | 'api' | 'temporal';
/** Who brought a killed part back: start.js's own supervision, or this suite restarting `npm start`. */
export type RestartedBy = 'supervision' | 'suite';

export interface Health {
  api: { pid: number };
  worker: { status: string; reason?: string; newest?: { workerId: string; pid: number } };
  temporal: { status: string };
}

/** argv of a running process ('' when it is gone). */
function cmdline(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
  } catch {
    return '';
  }
}

export interface FaultStackOptions {
  /** Extra config.json keys (the LLM block, database_path, …). */
  config: Record<string, unknown>;
}

export class FaultStack {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-faults-'));
  readonly configPath = path.join(this.dir, 'config.json');
  readonly appDir = path.join(this.dir, 'data');
  apiPort = 0;
  temporalPort = 0;
  private proc: GroupProcess | null = null;
  /** Output of every start of this stack, in order. */
  private earlierOutput = '';
  /** The last start: how long to "ready", and whether it compiled first (others' edits in a shared tree make a restart rebuild). */
  lastStart = { ms: 0, built: false };

  async init(options: FaultStackOptions): Promise<void> {
    this.apiPort = await freePort();
    this.temporalPort = await freePort();
    fs.writeFileSync(
      this.configPath,
      JSON.stringify({
        app_dir: 'data',
        api_port: this.apiPort,
        temporal_dev_server_port: this.temporalPort,
        worker_activity_slots: 2,
        worker_heartbeat_interval_seconds: 1,
        worker_heartbeat_stale_seconds: 5,
        host_min_spacing_ms: 0,
        host_max_in_flight: 4,
        tailor_score_threshold: 50,
        // The simulators listen on loopback, which the crawler refuses unless listed.
        allowed_private_hosts: ['127.0.0.1'],
        ...options.config,
      }),
    );
  }

  get base(): string {
    return `http://127.0.0.1:${this.apiPort}`;
  }

  output(): string {
    return this.earlierOutput + (this.proc?.output() ?? '');
  }

  /** `npm start` as a user runs it (no test-run Temporal address), until it prints "ready". */
  async start(): Promise<void> {
    if (this.proc) this.earlierOutput += this.proc.output();
    const env: NodeJS.ProcessEnv = { ...process.env, JOBCTRL_CONFIG: this.configPath };
    for (const key of Object.keys(env)) if (key.startsWith('TS_NODE_') || key.startsWith('TEMPORAL_')) delete env[key];
    const began = Date.now();
    const proc = spawnGroup(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env, graceMs: 20_000 });
    this.proc = proc;
    let exited: number | null | undefined;
    void proc.exited.then((code) => (exited = code));
    await waitFor(
      () => {
        if (exited !== undefined) throw new Error(`npm start exited (${String(exited)}) before it was ready:\n${proc.output().slice(-3000)}`);
        return proc.output().includes('[jobctrl] ready') ? { done: true } : { progress: [proc.output().length, this.logSizes()] };
      },
      { what: 'the "ready" line of npm start', idleTimeoutMs: 180_000, intervalMs: 200 },
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n--- npm start output ---\n${proc.output().slice(-3000)}`);
    });
    this.lastStart = { ms: Date.now() - began, built: proc.output().includes('[build]') };
  }

  /** Whether start.js (the supervisor, if it is one) still runs. */
  running(): boolean {
    return this.proc !== null && pidAlive(this.proc.pid);
  }

  async stop(): Promise<void> {
    await this.proc?.stop(20_000);
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private logSizes(): number[] {
    const logDir = path.join(this.appDir, 'logs');
    return fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => fs.statSync(path.join(logDir, f)).size) : [];
  }

  api(p: string, init?: RequestInit): Promise<Response> {
    return fetch(`${this.base}${p}`, { ...init, signal: AbortSignal.timeout(30_000) });
  }

  async json<T>(p: string, init?: RequestInit): Promise<T> {
    const res = await this.api(p, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`${init?.method ?? 'GET'} ${p}: HTTP ${res.status} ${text.slice(0, 500)}`);
    return JSON.parse(text) as T;
  }

  post<T>(p: string, body: unknown, method = 'POST'): Promise<T> {
    return this.json<T>(p, { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  }

  health(): Promise<Health> {
    return this.json<Health>('/v1/health');
  }

  /** The pid of a part, from the process tree of `npm start` (the dev server is not in health). */
  pidOf(part: Part): number | null {
    if (!this.proc) return null;
    const needle = part === 'temporal' ? 'server start-dev' : `dist/apps/${part}/main.js`;
    return processTree(this.proc.pid).find((p) => cmdline(p.pid).includes(needle))?.pid ?? null;
  }

  /** kill -9 of one part; the pid it killed. */
  kill(part: Part): number {
    const pid = this.pidOf(part);
    if (pid === null) throw new Error(`no ${part} process under npm start`);
    process.kill(pid, 'SIGKILL');
    return pid;
  }

  /**
   * Waits until the stack is whole again after `part` (pid `killed`) died: supervision restarted it
   * (a new pid, health ready and Temporal reachable), or start.js gave up (stopped everything) and the
   * suite starts it again — also when it leaves a degraded stack running for `degradedMs`.
   */
  async recover(part: Part, killed: number, degradedMs = 30_000): Promise<RestartedBy> {
    const since = Date.now();
    for (;;) {
      if (!this.running()) {
        await this.stop(); // reaps what is left of its group
        await this.start();
        return 'suite';
      }
      const now = this.pidOf(part);
      const health = await this.health().catch(() => null);
      if (now !== null && now !== killed && health?.worker.status === 'ready' && health.temporal.status === 'reachable') return 'supervision';
      if (Date.now() - since > degradedMs) {
        await this.stop();
        await this.start();
        return 'suite';
      }
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** A Temporal client on the stack's dev server (visibility queries of the fault counts). */
  async temporal(): Promise<{ client: Client; close(): Promise<void> }> {
    const connection = await Connection.connect({ address: `127.0.0.1:${this.temporalPort}` });
    return { client: new Client({ connection, namespace: 'default' }), close: () => connection.close() };
  }
}
