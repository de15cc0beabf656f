// `npm start` supervising its processes (#15): the real start script, its embedded dev server (history
// on disk), the compiled worker and API, a board simulator on loopback — and kill -9 from outside, as a
// crash or the OOM killer would. Waits follow progress; none is a timing assertion.
import * as fs from 'node:fs';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import { GroupProcess, pidAlive, waitFor } from '@jobctrl/tools/processes';
import { disposeStack, ThrowawayStack } from '@jobctrl/tools/stack/testing';

interface Health {
  api: { pid: number };
  worker: { status: string; reason: string; temporalUnreachableSince: string | null; newest: { pid: number } | null };
  temporal: { status: string };
}
interface Run {
  state: string;
  jobsDiscovered: number;
  familiesFailed: string[];
}

/** The pid npm start printed last for the dev server ("… pid N)"). */
function devServerPid(output: string): number {
  const pids = [...output.matchAll(/\[temporal\] dev server (?:listening|restarted) on [^\n]*pid (\d+)\)/g)].map((m) => Number(m[1]));
  if (pids.length === 0) throw new Error(`no dev server pid in:\n${output}`);
  return pids[pids.length - 1];
}

const count = (text: string, what: string) => text.split(what).length - 1;

describe('npm start supervision', () => {
  let throwaway: ThrowawayStack;
  let stack: GroupProcess;
  let sim: Awaited<ReturnType<typeof startBoardSimulator>>;
  let unique: number;

  const api = (p: string, init?: RequestInit) => fetch(`${throwaway.url}${p}`, init);
  const health = async () => (await (await api('/v1/health')).json()) as Health;
  const output = () => stack.output();
  /** Waits for `probe`, failing at once (with npm start's output) if the stack exits meanwhile. */
  const until = <T>(what: string, probe: () => Promise<{ done: T } | { progress: unknown }>): Promise<T> =>
    Promise.race([
      waitFor(() => probe(), { what, idleTimeoutMs: 90_000, intervalMs: 200 }) as Promise<T>,
      stack.exited.then((code) => Promise.reject(new Error(`npm start exited (${code})`))),
    ]).catch((err: Error) => {
      throw new Error(`${err.message}\n--- npm start output ---\n${output()}`);
    });

  async function startRun(): Promise<string> {
    const res = await api('/v1/pipeline/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stages: ['discover', 'score'] }) });
    expect(res.status).toBe(202);
    return ((await res.json()) as { runId: string }).runId;
  }

  /** The run reaches a terminal state; it must be `completed` with every job of the boards. */
  async function expectCompleted(runId: string): Promise<void> {
    const run = await until<Run>('the run to finish', async () => {
      const r = await api(`/v1/pipeline/runs/${runId}`).then((res) => res.json() as Promise<Run>, () => null);
      return r && ['completed', 'failed', 'cancelled', 'spend_ceiling_reached'].includes(r.state) ? { done: r } : { progress: r };
    });
    expect(run).toMatchObject({ state: 'completed', familiesFailed: [], jobsDiscovered: unique });
  }

  beforeAll(async () => {
    // Slow enough answers that a run is still going when something is killed.
    sim = await startBoardSimulator({ seed: 5, jobsPerBoard: 6, families: [{ kind: 'greenhouse', token: 'acme' }, { kind: 'lever', token: 'globex' }], knobs: { latencyMs: 300 } });
    unique = sim.manifest().jobs.filter((j) => j.repostOf === null).length;
    throwaway = await new ThrowawayStack('jobctrl-supervise-').writeConfig();
    // Keeps the dev server's restart 12 s away — over two worker heartbeats (5 s) — so the outage is
    // still there when health reports it: the worker notices it at its next heartbeat (up to 5 s
    // after the kill) and the API probes Temporal when asked. With 4 s the dev server could be back
    // before the worker's degraded heartbeat was read, and the API then rightly said reachable.
    stack = await throwaway.start({ env: { JOBCTRL_TEST_DEV_SERVER_RESTART_DELAY_MS: '12000' } });
    const company = sim.manifest().boards.find((b) => b.key === 'lever:globex')?.company;
    for (const [kind, key, token, extra] of [['greenhouse', 'board_token', 'acme', {}], ['lever', 'site', 'globex', { company_name: company }]] as const) {
      const res = await api('/v1/sources', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind, name: token, config: { [key]: token, base_url: sim.url, ...extra } }) });
      expect(res.status).toBe(201);
    }
  }, 10 * 60_000);

  afterAll(async () => {
    await disposeStack(throwaway);
    await sim?.stop();
  });

  it('(a) a dev server killed mid-run is restarted on its history; health shows the outage, then ready; the run completes with every job', async () => {
    const runId = await startRun();
    const killedPid = devServerPid(output());
    process.kill(killedPid, 'SIGKILL');
    // The worker, cut off, says so (and since when) instead of ready; the API sees Temporal down too.
    const outage = await until<Health>('health to report the outage', async () => {
      const h = await health();
      return h.worker.status === 'degraded' ? { done: h } : { progress: h.worker };
    });
    expect(outage.worker.reason).toMatch(/^temporal: unreachable since \d{4}-\d\d-\d\dT/);
    expect(outage.worker.temporalUnreachableSince).toEqual(expect.any(String));
    expect(outage.temporal.status).toBe('unreachable');
    expect(output()).toContain('[jobctrl] temporal dev server exited (signal SIGKILL); restarting (1/5 in the last 10 min)');
    await until('the dev server to be restarted', async () => (output().includes('[temporal] dev server restarted on') ? { done: true } : { progress: output().length }));
    expect(devServerPid(output())).not.toBe(killedPid);
    // The worker reconnected by itself (it was never restarted).
    const back = await until<Health>('health to be ready again', async () => {
      const h = await health();
      return h.worker.status === 'ready' && h.temporal.status === 'reachable' ? { done: h } : { progress: h.worker };
    });
    expect(back.worker.temporalUnreachableSince).toBeNull();
    expect(output()).not.toContain('[jobctrl] worker exited');
    await expectCompleted(runId);
  });

  it('(b) a worker killed mid-run is restarted and the run completes', async () => {
    const before = await health();
    const workerPid = before.worker.newest?.pid as number;
    const runId = await startRun();
    process.kill(workerPid, 'SIGKILL');
    await until('the worker restart', async () => (output().includes('[worker] restarted') ? { done: true } : { progress: output().length }));
    expect(output()).toContain('[jobctrl] worker exited (signal SIGKILL); restarting (1/5 in the last 10 min)');
    await expectCompleted(runId);
    const after = await health();
    expect(after.worker.status).toBe('ready');
    expect(after.worker.newest?.pid).not.toBe(workerPid);
    expect(pidAlive(workerPid)).toBe(false);
  });

  it('(c) an API killed is restarted and serves again; the others never stopped', async () => {
    const before = await health();
    process.kill(before.api.pid, 'SIGKILL');
    const after = await until<Health>('the API to answer again', async () => {
      const h = await health().catch(() => null);
      return h && h.api.pid !== before.api.pid ? { done: h } : { progress: [h?.api.pid ?? null, output().length] };
    });
    expect(output()).toContain('[jobctrl] api exited (signal SIGKILL); restarting (1/5 in the last 10 min)');
    expect(after.worker.newest?.pid).toBe(before.worker.newest?.pid);
    expect((await api('/v1/sources')).status).toBe(200);
  });

  it('(d) a dev server that keeps dying: 5 restarts, then npm start stops everything with why and exit 1', async () => {
    // (a) spent one restart; four more, then the sixth death in 10 minutes is one too many.
    for (let restarts = 2; restarts <= 6; restarts++) {
      const pid = devServerPid(output());
      process.kill(pid, 'SIGKILL');
      if (restarts === 6) break;
      await until(`restart ${restarts}`, async () => (count(output(), '[temporal] dev server restarted on') >= restarts ? { done: true } : { progress: output().length }));
      expect(output()).toContain(`restarting (${restarts}/5 in the last 10 min)`);
    }
    const code = await Promise.race([stack.exited, waitFor(() => ({ progress: output().length }), { what: 'npm start to give up', idleTimeoutMs: 90_000 })]);
    expect(code).toBe(1);
    expect(output()).toContain('[jobctrl] temporal dev server exited (signal SIGKILL) after 5 restarts in the last 10 min; giving up');
    expect(output()).toContain('[jobctrl] stopped');
  });
});

describe('npm start with a config that turned bad', () => {
  it('(e) a part that exits 78 (invalid configuration) stops the stack at once, naming the key — no restart loop', async () => {
    const throwaway = await new ThrowawayStack('jobctrl-supervise-bad-').writeConfig();
    const { configPath } = throwaway;
    try {
      const stack = await throwaway.start();
      const h = (await (await fetch(`${throwaway.url}/v1/health`)).json()) as Health;
      // config.json edited by hand while running; the next worker start reads it.
      const config = JSON.parse(fs.readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      fs.writeFileSync(configPath, JSON.stringify({ ...config, worker_activity_slots: 'four' }));
      process.kill(h.worker.newest?.pid as number, 'SIGKILL');
      const code = await Promise.race([stack.exited, waitFor(() => ({ progress: stack.output().length }), { what: 'npm start to stop', idleTimeoutMs: 90_000 })]);
      const out = stack.output();
      expect(code).toBe(78);
      expect(out).toContain('[jobctrl] worker exited (exit code 78: invalid configuration); not restarting it');
      expect(out).toContain('worker_activity_slots');
      // The kill was restarted once; the config error was not retried.
      expect(count(out, '[jobctrl] worker exited')).toBe(2);
      expect(out).not.toContain('restarting (2/5');
    } finally {
      await disposeStack(throwaway);
    }
    // Most of it is the stack's start (2.5 min measured at load 22 on 2 cores); the waits follow progress.
  }, 10 * 60_000);
});
