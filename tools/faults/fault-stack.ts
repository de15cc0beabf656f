// The stack a fault case runs against: `npm start` itself (tools/stack/start.js — the compiled worker
// and API, the embedded Temporal dev server with its history on disk), on a throwaway app dir and
// free loopback ports. The suite only finds the parts' pids and kills them; who brings a part back is
// the start's business: once start.js supervises its parts (issue #15), it restarts them and this
// wrapper just waits for health; a start that instead stops everything when a part dies (or leaves a
// degraded stack running) is restarted here, and the row says which of the two recovered it.
import * as fs from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { type GroupProcess, processTree } from '@jobctrl/tools/processes';
import { ThrowawayStack } from '@jobctrl/tools/stack/testing';

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

/** The shared throwaway stack (temp dir, test settings, `npm start` to ready, stop), plus the fault suite's part handling. */
export class FaultStack extends ThrowawayStack {
  /** The last start: how long to "ready", and whether it compiled first (others' edits in a shared tree make a restart rebuild). */
  lastStart = { ms: 0, built: false };

  constructor() {
    super('jobctrl-faults-');
  }

  async init(options: FaultStackOptions): Promise<void> {
    await this.writeConfig({ tailor_score_threshold: 50, ...options.config });
  }

  /** `npm start` as a user runs it (no test-run Temporal address), until it prints "ready". */
  override async start(): Promise<GroupProcess> {
    const began = Date.now();
    const proc = await super.start({ graceMs: 20_000 });
    this.lastStart = { ms: Date.now() - began, built: proc.output().includes('[build]') };
    return proc;
  }

  post<T>(p: string, body: unknown, method = 'POST'): Promise<T> {
    return this.json<T>(p, { method, body });
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
