// A real stack for the UI tests, started as a user starts it: `npm start` (tools/stack/start.js) on a
// throwaway config — its own embedded Temporal dev server and API port, the compiled worker and API,
// the built UI served at / — in a process group of its own, so stopping it (or the jest process
// dying) stops everything under it.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { freePort } from '@jobctrl/tools/temporal';
import { type GroupProcess, processTree, pidAlive, spawnGroup, waitFor } from '@jobctrl/tools/processes';

export const root = path.resolve(__dirname, '..', '..', '..', '..');

export interface Stack {
  /** http://127.0.0.1:<port> — the UI at /, the API under /v1. */
  url: string;
  configPath: string;
  /** The API's answer as parsed JSON; throws on a non-2xx with the body. */
  json<T = unknown>(p: string, init?: { method?: string; body?: unknown }): Promise<T>;
  output(): string;
  /** Stops the stack; resolves once no process of its tree runs. */
  stop(): Promise<void>;
}

/** Sizes of the stack's log files: they grow while it starts up, even before the API answers. */
function logSizes(dir: string): number[] {
  const logDir = path.join(dir, 'data', 'logs');
  return fs.existsSync(logDir) ? fs.readdirSync(logDir).map((f) => fs.statSync(path.join(logDir, f)).size) : [];
}

export async function startStack(settings: Record<string, unknown> = {}): Promise<Stack> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-web-e2e-'));
  const configPath = path.join(dir, 'config.json');
  const apiPort = await freePort();
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      app_dir: 'data',
      api_port: apiPort,
      temporal_dev_server_port: await freePort(),
      worker_activity_slots: 2,
      worker_heartbeat_interval_seconds: 1,
      worker_heartbeat_stale_seconds: 5,
      host_min_spacing_ms: 0,
      host_max_in_flight: 4,
      // The board simulator listens on loopback, which the crawler refuses unless listed here.
      allowed_private_hosts: ['127.0.0.1'],
      ...settings,
    }),
  );
  // A user's shell: no Temporal address of the test run (the stack starts its own dev server).
  const env: NodeJS.ProcessEnv = { ...process.env, JOBCTRL_CONFIG: configPath };
  for (const key of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'UV_THREADPOOL_SIZE']) delete env[key];
  const group: GroupProcess = spawnGroup(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env });
  const url = `http://127.0.0.1:${apiPort}`;
  const stop = async () => {
    const tree = processTree(group.pid).map((p) => p.pid);
    await group.stop();
    await waitFor(() => (tree.some(pidAlive) ? { progress: tree.filter(pidAlive) } : { done: true }), { what: 'the stack processes to exit', idleTimeoutMs: 20_000 });
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // The first start after a change builds what is stale (the UI included): the wait follows its
    // output and log growth, and a start that gave up fails at once.
    await Promise.race([
      waitFor(() => (group.output().includes('[jobctrl] ready') ? { done: true } : { progress: [group.output().length, logSizes(dir)] }), {
        what: 'the "ready" line of npm start',
        idleTimeoutMs: 180_000,
      }),
      group.exited.then((code) => Promise.reject(new Error(`npm start exited (${code}) before it was ready`))),
    ]);
  } catch (err) {
    const out = group.output();
    await stop();
    throw new Error(`${(err as Error).message}\n--- npm start output ---\n${out}`);
  }
  return {
    url,
    configPath,
    output: () => group.output(),
    stop,
    async json<T>(p: string, init: { method?: string; body?: unknown } = {}): Promise<T> {
      const res = await fetch(`${url}${p}`, {
        method: init.method ?? 'GET',
        headers: init.body === undefined ? {} : { 'content-type': 'application/json' },
        body: init.body === undefined ? undefined : JSON.stringify(init.body),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${init.method ?? 'GET'} ${p}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : null) as T;
    },
  };
}
