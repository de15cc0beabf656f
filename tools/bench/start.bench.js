#!/usr/bin/env node
// `npm run bench:start [-- --runs 3 --slots 4 --keep]`: how fast `npm start` brings a stack up and
// what its processes weigh once it is ready (issue #14 targets: worker ready ≤ 8 s with the embedded
// dev server; worker RSS ≤ 250 MB, API RSS ≤ 150 MB).
//
// Each run starts tools/stack/start.js in a fresh temporary app dir (its own config.json, free
// ports, the embedded Temporal dev server, default settings otherwise: Chromium at
// browser_executable_path is launched by the warm-up), measures from the spawn to its
// "[jobctrl] ready" line (the API reports the worker ready, which it does only once the worker is
// warm), reads VmRSS from /proc/<pid>/status of the worker and API node processes (not their
// children: Chromium and the dev server are reported apart), stops the stack with SIGTERM as
// Ctrl-C does, and removes the dir. A first run on a stale tree includes the build: build_was_fresh
// says so and build_ms is its part; the later runs start from the built tree.
//
// Last line: JSON {start_to_ready_ms, worker_rss_mb, api_rss_mb, build_was_fresh, build_ms, …}
// with the median of the runs (and every run under `runs`).
'use strict';
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { processTree, stopGroup } = require('../processes/process-group');
const { staleApps } = require('../build/build');

const root = path.resolve(__dirname, '..', '..');

function arg(name, fallback) {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : fallback;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

function rssMb(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Math.round(Number(m[1]) / 1024) : null;
  } catch {
    return null;
  }
}

function threadsOf(pid) {
  try {
    return Number(/Threads:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
  } catch {
    return null;
  }
}

function commOf(pid) {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '?';
  }
}

async function health(port) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/health`);
  return res.json();
}

async function oneRun(slots, keep) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-start-bench-'));
  const apiPort = await freePort();
  const temporalPort = await freePort();
  const configPath = path.join(dir, 'config.json');
  fs.writeFileSync(configPath, JSON.stringify({ app_dir: 'data', api_port: apiPort, temporal_dev_server_port: temporalPort, worker_activity_slots: slots }));
  const env = { ...process.env, JOBCTRL_CONFIG: configPath };
  for (const k of ['TEMPORAL_ADDRESS', 'TEMPORAL_NAMESPACE', 'UV_THREADPOOL_SIZE', 'TS_NODE_PROJECT', 'JOBCTRL_BUILD_DIR']) delete env[k];
  // Every part `npm start` builds when stale (the web UI too), or a run said "fresh" and timed a build.
  const fresh = staleApps(['worker', 'api', 'web']).length === 0;
  const started = Date.now();
  const child = spawn(process.execPath, [path.join(root, 'tools/stack/start.js')], { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  // When each milestone line of the start appeared (ms after the spawn): where the time went.
  const milestones = {};
  const MILESTONES = { build_done_ms: '[build] done', temporal_ready_ms: '[temporal] ', parts_spawned_ms: '[api] starting' };
  const onData = (c) => {
    out += c;
    for (const [k, text] of Object.entries(MILESTONES)) if (milestones[k] === undefined && out.includes(text)) milestones[k] = Date.now() - started;
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  try {
    const readyMs = await new Promise((resolve, reject) => {
      const timer = setInterval(() => {
        if (out.includes('[jobctrl] ready')) {
          clearInterval(timer);
          resolve(Date.now() - started);
        }
      }, 20);
      child.on('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`npm start exited (${code}) before it was ready:\n${out}`));
      });
    });
    const h = await health(apiPort);
    const workerPid = h.worker.newest.pid;
    const apiPid = h.api.pid;
    const children = processTree(workerPid)
      .filter((p) => p.pid !== workerPid)
      .map((p) => ({ pid: p.pid, comm: commOf(p.pid), rss: rssMb(p.pid) ?? 0 }));
    const build = /\[build\] done in ([\d.]+) s/.exec(out);
    const warm = /warm in (\d+) ms/.exec(fs.readFileSync(path.join(dir, 'data', 'logs', 'worker.log'), 'utf8'));
    return {
      start_to_ready_ms: readyMs,
      worker_rss_mb: rssMb(workerPid),
      api_rss_mb: rssMb(apiPid),
      // What the start printed decides, not only the prediction above: a run that built is not start-up.
      build_was_fresh: fresh && !build,
      build_ms: build ? Math.round(Number(build[1]) * 1000) : 0,
      ready_after_build_ms: readyMs - (build ? Math.round(Number(build[1]) * 1000) : 0),
      ...milestones,
      worker_warm_up_ms: warm ? Number(warm[1]) : null,
      worker_threads: threadsOf(workerPid),
      worker_children_rss_mb: children.reduce((a, c) => a + c.rss, 0),
      worker_children: [...new Set(children.map((c) => c.comm))].join(','),
    };
  } finally {
    await stopGroup(child.pid, { graceMs: 20_000 });
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  }
}

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v[Math.floor(v.length / 2)];
}

async function main() {
  const runs = Number(arg('runs', '1'));
  const slots = Number(arg('slots', '4'));
  const keep = process.argv.includes('--keep');
  const results = [];
  for (let i = 0; i < runs; i += 1) {
    const r = await oneRun(slots, keep);
    console.error(`[bench:start] run ${i + 1}/${runs}: ${JSON.stringify(r)}`);
    results.push(r);
  }
  // Medians over the runs that did not build (a build is not start-up), unless every run built.
  const measured = results.filter((r) => r.build_was_fresh).length > 0 ? results.filter((r) => r.build_was_fresh) : results;
  const pick = (k) => median(measured.map((r) => r[k]));
  console.log(
    JSON.stringify({
      start_to_ready_ms: pick('start_to_ready_ms'),
      worker_rss_mb: pick('worker_rss_mb'),
      api_rss_mb: pick('api_rss_mb'),
      build_was_fresh: results[0].build_was_fresh,
      build_ms: results[0].build_ms,
      worker_warm_up_ms: pick('worker_warm_up_ms'),
      worker_children_rss_mb: pick('worker_children_rss_mb'),
      slots,
      runs: results,
      loadavg: os.loadavg().map((l) => Math.round(l * 100) / 100),
      cpus: os.cpus().length,
    }),
  );
}

main().catch((err) => {
  console.error(`[bench:start] failed: ${err && err.stack ? err.stack : err}`);
  process.exit(1);
});
