// `npm start` end to end, as a user runs it: the real start script builds what is stale (tools/build),
// then brings up the embedded Temporal dev server, the compiled worker and the compiled API on free
// loopback ports. The suite builds at most once: the first start does it, the later checks reuse it.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import * as sqlite3 from 'sqlite3';
import { sampleProfile } from '@jobctrl/shared/profile/testing';
import { workerCapacity } from '@jobctrl/shared/temporal';
import { startBoardSimulator } from '@jobctrl/tools/fixtures';
import { GroupProcess, pidAlive, processTree, waitFor } from '@jobctrl/tools/processes';
import { disposeStack, root, ThrowawayStack, userEnv } from '@jobctrl/tools/stack/testing';
// The build's plain-JS module, loaded by path as start.js loads it.
const build = require(path.join(root, 'tools', 'build', 'build.js')) as { staleApps(apps: string[]): Array<{ app: string; reason: string }>; outDirOf(app: string): string };

/** argv and environment of a running process, as the kernel has them. */
function procInfo(pid: number): { argv: string[]; env: string[] } {
  const read = (f: string) => fs.readFileSync(`/proc/${pid}/${f}`, 'utf8').split('\0').filter(Boolean);
  return { argv: read('cmdline'), env: read('environ') };
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** A process that has already exited (its pid is free, so no lock can be held by it). */
function deadPid(): number {
  const res = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(res.stdout);
}

function readHeartbeatPayload(databasePath: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(databasePath, sqlite3.OPEN_READONLY);
    db.get('SELECT payload FROM worker_heartbeats ORDER BY recorded_at DESC LIMIT 1', (err, row: { payload: string } | undefined) =>
      db.close(() => (err || !row ? reject(err ?? new Error('no heartbeat row')) : resolve(JSON.parse(row.payload)))),
    );
  });
}

interface HealthBody {
  api: { pid: number };
  worker: { status: string; newest: { workerId: string; pid: number } };
  temporal: { status: string };
}

describe('npm start', () => {
  let throwaway: ThrowawayStack;
  let dir: string;
  let configPath: string;
  let apiPort: number;
  let temporalPort: number;
  let stack: GroupProcess;

  beforeAll(async () => {
    throwaway = await new ThrowawayStack('jobctrl-stack-').writeConfig({ tailor_score_threshold: 50 });
    ({ dir, configPath, apiPort, temporalPort } = throwaway);
  });

  // `npm start` runs in a process group of its own: spawnGroup stops it with the worker, API, dev
  // server and Chromium under it after the test, whether it passed, failed or timed out.
  afterAll(() => disposeStack(throwaway));

  const api = (p: string, init?: RequestInit) => fetch(`http://127.0.0.1:${apiPort}${p}`, init);

  it('brings the worker to ready, runs a smoke workflow within the slot limit, and stops without leftovers', async () => {
    // A lock left by a start that was killed: its pid is dead, so this start takes it over.
    const stalePid = deadPid();
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'data', 'jobctrl.pid'), JSON.stringify({ pid: stalePid, startTime: null, startedAt: '2020-01-01T00:00:00Z' }));
    // ... in an app dir as versions before #39 made it: readable by everyone.
    fs.chmodSync(path.join(dir, 'data'), 0o755);

    // A source whose mtime moved since the last build (content unchanged, so nothing to review or
    // commit): the start must see the API as stale and rebuild it before it runs it.
    const touched = path.join(root, 'apps/api/src/main.ts');
    const now = new Date();
    fs.utimesSync(touched, now, now);
    expect(build.staleApps(['api'])).toEqual([{ app: 'api', reason: expect.any(String) }]);

    // Deadlines follow progress: start-up output and log growth extend the wait; a start that gave up
    // (a part died) fails the test at once.
    stack = await throwaway.start();
    const output = () => stack.output();
    // (The web UI may be listed after it: the start builds it with the parts.)
    expect(output()).toMatch(/\[build\] [^\n]*api \((sources changed|never built)\)[^\n]*: compiling/);
    expect(output()).toMatch(/\[build\] api: \d+ sources compiled to dist\/apps\/api/);
    // (Not "nothing is stale now": in a shared working tree another edit may land meanwhile.)
    const apiStamp = JSON.parse(fs.readFileSync(path.join(build.outDirOf('api'), 'build-stamp.json'), 'utf8')) as { builtAt: string };
    expect(Date.parse(apiStamp.builtAt)).toBeGreaterThanOrEqual(now.getTime() - 1_000);
    expect(output()).toContain(`took over the lock of pid ${stalePid}`);
    expect(output()).toContain(`dev server listening on 127.0.0.1:${temporalPort}`);
    expect(output()).toContain(`http://127.0.0.1:${apiPort}`);
    // One URL to open: the API serves the web UI (built by the start when stale) at /.
    expect(output()).toContain(`[jobctrl] ready: open the UI at http://127.0.0.1:${apiPort}/`);
    const ui = await api('/pipelines');
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain('<div id="root">');

    // A second `npm start` on the same app dir names the running one and gives up at once, without
    // waiting on anything (the running stack is untouched).
    const second = spawnSync(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env: userEnv(configPath), encoding: 'utf8', timeout: 60_000 });
    expect(second.status).toBe(1);
    expect(second.stderr).toContain(`already running for ${path.join(dir, 'data')}: pid ${stack.pid}`);
    expect(second.stdout).not.toContain('[temporal]');

    // #39: the app dir is private now, and so is what the stack wrote in it (the SQLite files while open).
    const data = path.join(dir, 'data');
    const modeOf = (p: string) => fs.statSync(p).mode & 0o777;
    expect(output()).toContain(`[jobctrl] made private to this user (0700 folders, 0600 files): ${data}`);
    expect(modeOf(data)).toBe(0o700);
    expect(modeOf(path.join(data, 'logs'))).toBe(0o700);
    const ours = ['jobctrl.pid', 'logs/worker.log', 'logs/api.log', 'logs/temporal.log', ...['jobctrl.sqlite', 'temporal.sqlite'].flatMap((db) => [db, `${db}-wal`, `${db}-shm`])];
    for (const f of ours.filter((f) => fs.existsSync(path.join(data, f)))) expect([f, modeOf(path.join(data, f))]).toEqual([f, 0o600]);
    expect(fs.existsSync(path.join(data, 'jobctrl.sqlite')) && fs.existsSync(path.join(data, 'temporal.sqlite'))).toBe(true);

    const health = (await (await api('/v1/health')).json()) as HealthBody;
    expect(health.worker).toMatchObject({ status: 'ready', newest: { activitySlots: 2, executorWidth: 4, taskQueue: 'jobctrl-default' } });
    expect(health.temporal).toMatchObject({ status: 'reachable', embedded: true, address: `127.0.0.1:${temporalPort}` });
    // What the worker writes later (apply screenshots, Chromium's profile) is private too: it runs under umask 077.
    expect(fs.readFileSync(`/proc/${health.worker.newest.pid}/status`, 'utf8')).toMatch(/^Umask:\s+0077$/m);

    // The heartbeat row carries the capacity model; libuv's pool was sized from the slots before first use.
    const hb = await readHeartbeatPayload(path.join(dir, 'data', 'jobctrl.sqlite'));
    expect(hb).toMatchObject({ uvThreadpoolSize: 2 * (2 + 2) + 4, executors: { temporalSync: { width: 4 }, blockingStage: { width: 4 } } });

    // Both parts run the compiled tree, and nothing of ts-node: not on their command line, not in
    // their environment, not among the modules they loaded (the worker's heartbeat and the API's
    // start line report require.cache).
    for (const [part, pid] of [['worker', health.worker.newest.pid], ['api', health.api.pid]] as const) {
      const { argv, env } = procInfo(pid);
      expect(argv[0]).toMatch(/node$/);
      expect(argv[argv.length - 1]).toBe(path.join(build.outDirOf(part), 'main.js'));
      expect(argv.filter((a) => a === '-r' || a.startsWith('--require') || a.includes('ts-node'))).toEqual([]);
      expect(env.filter((e) => /TS_NODE|ts-node|tsconfig-paths/.test(e))).toEqual([]);
    }
    expect(hb).toMatchObject({ runtime: { buildDir: build.outDirOf('worker'), tsNode: false } });
    expect(fs.readFileSync(path.join(dir, 'data', 'logs', 'api.log'), 'utf8')).toContain(`compiled ${build.outDirOf('api')}, ts-node not loaded`);
    // Ready means warm: the worker warmed its parser threads, the browser and its workflow sandbox (the
    // warm-up workflow, from the compiled bundle) before its first heartbeat.
    // The capacity model's CPU pool for this stack's 2 slots (one thread per core, 2..slots + 2).
    const { cpuThreads } = workerCapacity(2);
    expect(fs.readFileSync(path.join(dir, 'data', 'logs', 'worker.log'), 'utf8')).toMatch(
      new RegExp(`warm in \\d+ ms: ${cpuThreads} parser threads, browser launched; workflow sandbox \\d+ ms`),
    );

    // The smoke workflow through the real worker on jobctrl-default: 6 holds, 2 slots.
    const started = await api('/v1/pipeline/smoke', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ activities: 6, holdMs: 700 }),
    });
    expect(started.status).toBe(202);
    const { workflowId } = (await started.json()) as { workflowId: string };
    const done = await waitFor(
      async () => {
        const body = (await (await api(`/v1/pipeline/smoke/${workflowId}`)).json()) as { status: string; result: unknown; lifecycle: unknown[] };
        return body.status === 'COMPLETED' ? { done: body } : { progress: body };
      },
      { what: 'the smoke workflow', idleTimeoutMs: 60_000 },
    );
    expect(done.result).toMatchObject({ completed: 6, maxObservedActive: 2, workers: [health.worker.newest.workerId] });
    expect(done.lifecycle).toEqual([expect.objectContaining({ workflowId, status: 'completed', workflowType: 'smokeWorkflow' })]);

    // The profile the preparation stages work from (its update starts a batch; there are no jobs yet).
    const put = await api('/v1/profile', { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(sampleProfile()) });
    expect(put.status).toBe(200);
    expect(await put.json()).toMatchObject({ revision: 1, batch: { workflowId: expect.stringMatching(/^pipeline-/) } });

    // A full run through the API against the board simulator: sources, discover → score → tailor →
    // cover, progress, jobs with their artifacts.
    const sim = await startBoardSimulator({ seed: 3, jobsPerBoard: 8, families: [{ kind: 'greenhouse', token: 'acme' }, { kind: 'lever', token: 'globex' }] });
    try {
      // Lever's API names no company: the user names it (company_name), or letters would address "globex".
      const globex = sim.manifest().boards.find((b) => b.key === 'lever:globex')?.company;
      for (const [kind, key, token, company] of [['greenhouse', 'board_token', 'acme', undefined], ['lever', 'site', 'globex', globex]]) {
        const config = { [key as string]: token, base_url: sim.url, ...(company ? { company_name: company } : {}) };
        const created = await api('/v1/sources', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ kind, name: token, config }) });
        expect(created.status).toBe(201);
      }
      const startedRun = await api('/v1/pipeline/runs', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ stages: ['discover', 'score', 'tailor', 'cover'] }) });
      expect(startedRun.status).toBe(202);
      const { runId, workflowId: runWorkflowId } = (await startedRun.json()) as { runId: string; workflowId: string };
      expect(runWorkflowId).toBe(`pipeline-${runId}`);
      const seen: number[] = [];
      // No fixed deadline: the wait lasts while the run moves (families, discovered jobs, the
      // preparation batch) and fails after 90 s without movement.
      const finished = await waitFor(
        async () => {
          const run = (await (await api(`/v1/pipeline/runs/${runId}`)).json()) as {
            state: string;
            progress: { completed: number; total: number };
            preparation: unknown;
            familiesFailed: string[];
            jobsDiscovered: number;
          };
          seen.push(run.progress.completed);
          return run.state === 'completed' ? { done: run } : { progress: [run.state, run.progress, run.preparation, run.jobsDiscovered] };
        },
        { what: 'the discovery run', idleTimeoutMs: 90_000 },
      );
      expect(finished).toMatchObject({ state: 'completed', familiesFailed: [], progress: { completed: 3, total: 3 } });
      expect([...seen].sort((a, b) => a - b)).toEqual(seen); // progress never went back
      const unique = sim.manifest().jobs.filter((j) => j.repostOf === null).length;
      expect(finished.jobsDiscovered).toBe(unique);
      const list = (await (await api(`/v1/jobs?runId=${runId}&limit=100`)).json()) as { total: number; items: Array<{ jobKey: string; idempotencyKey: string; title: string; sources: unknown[] }> };
      expect(list.total).toBe(unique);
      const detail = (await (await api(`/v1/jobs/${list.items[0].jobKey}`)).json()) as Record<string, unknown>;
      expect(detail).toMatchObject({ jobKey: list.items[0].jobKey, idempotencyKey: list.items[0].idempotencyKey, title: expect.any(String), company: expect.any(String), url: expect.any(String) });
      expect(detail).toHaveProperty('stage');
      expect(detail).toHaveProperty('score');
      const jobs = (await (await api(`/v1/jobs?runId=${runId}&limit=100`)).json()) as { items: Array<{ stage: string; score: number | null; coverReview: { accepted: boolean } | null }> };
      expect(jobs.items.every((j) => j.score !== null && (j.stage === 'scored' || j.stage === 'prepared'))).toBe(true);
      const prepared = jobs.items.filter((j) => j.stage === 'prepared');
      expect(prepared.length).toBeGreaterThan(0);
      expect(prepared.every((j) => j.coverReview?.accepted === true)).toBe(true);
      expect(await (await api('/v1/spend')).json()).toMatchObject({ provider: 'extractive', spentUsd: 0, calls: 0 });
    } finally {
      await sim.stop();
    }

    // An invalid settings change is refused by name and leaves config.json as it was.
    const before = fs.readFileSync(configPath);
    const patch = await api('/v1/settings', { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"worker_activity_slots": 0}' });
    expect(patch.status).toBe(400);
    expect(JSON.stringify(await patch.json())).toContain('worker_activity_slots');
    expect(fs.readFileSync(configPath).equals(before)).toBe(true);

    const pids = [health.worker.newest.pid as number, health.api.pid as number];
    expect(pids.every(pidAlive)).toBe(true);
    // Everything `npm start` runs, in whatever process group: the parts, the dev server, Chromium.
    const tree = processTree(stack.pid).map((p) => p.pid);
    expect(tree).toEqual(expect.arrayContaining(pids));
    expect(fs.existsSync(path.join(dir, 'data', 'jobctrl.pid'))).toBe(true);
    stack.child.kill('SIGTERM');
    expect(await stack.exited).toBe(0);
    expect(output()).toContain('[jobctrl] stopped');
    // Nothing left behind: no process of the stack, no lock, no one listening on the API or Temporal port.
    await waitFor(() => (tree.some(pidAlive) ? { progress: tree.filter(pidAlive) } : { done: true }), { what: 'the stack processes to exit', idleTimeoutMs: 20_000 });
    expect(fs.existsSync(path.join(dir, 'data', 'jobctrl.pid'))).toBe(false);
    expect(await portOpen(apiPort)).toBe(false);
    expect(await portOpen(temporalPort)).toBe(false);
  }, 20 * 60_000); // the waits above follow progress; this only caps a machine that keeps moving

  it('a config.json with a bad value stops the worker with a message naming the key', () => {
    const bad = path.join(dir, 'bad.json');
    fs.writeFileSync(bad, JSON.stringify({ app_dir: 'data', worker_activity_slots: 'four' }));
    // The compiled worker the test above built.
    const res = spawnSync(process.execPath, [path.join(build.outDirOf('worker'), 'main.js')], { cwd: root, env: userEnv(bad), encoding: 'utf8', timeout: 60_000 });
    expect(res.status).toBe(78);
    expect(res.stderr).toContain('invalid configuration');
    expect(res.stderr).toContain('worker_activity_slots');
    expect(res.stderr).toContain('"four"');
  });

  it('npm start refuses a bad config.json before starting anything', () => {
    const bad = path.join(dir, 'bad-start.json');
    fs.writeFileSync(bad, JSON.stringify({ app_dir: 'data', api_port: 70000 }));
    // The start builds what changed since the suite's first start before it reads the config (the
    // config lib it validates with is part of the build): on a working tree others edit, that may take a while.
    const res = spawnSync(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env: userEnv(bad), encoding: 'utf8', timeout: 300_000 });
    expect(res.status).toBe(78);
    expect(res.stderr).toContain('api_port');
    expect(res.stdout).not.toContain('[temporal]');
  }, 360_000);
});
