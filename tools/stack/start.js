#!/usr/bin/env node
// `npm start`: installs what is missing, starts the Temporal dev server (unless TEMPORAL_ADDRESS or
// temporal_address points elsewhere), the worker and the API, waits until the API reports the worker
// ready, and says where each listens and where to open the web UI (served by the API at /). Ctrl-C (or SIGTERM, SIGHUP) stops everything it started.
//
// Supervision (supervisor.js): a dev server, worker or API that dies on its own is restarted — the dev
// server on the same port and history file, so the run in flight resumes from it — at most 5 times in
// 10 minutes each, every restart printed; one more death stops everything with a message that says why
// and exit 1. A part that exits 78 (invalid configuration) is not restarted: the stack stops at once
// with the part's message naming the key, and exits 78.
//
// One stack per app dir: `<app_dir>/jobctrl.pid` (stack-lock.js) names the start that runs it, and a
// second start says so and exits 1 at once.
//
// The parts run compiled: `node dist/apps/<part>/main.js`, built by tools/build/build.js (what `nx
// build api|worker` runs) when their sources changed since the last build — a stamp of sizes and
// mtimes, checked in ~10 ms, so an unchanged tree starts at once and a clean clone builds everything
// first. No ts-node in the running product: the config is read through the compiled config lib in
// this process, and the parts load only compiled JavaScript (thread pool and workflow bundle too).
//
// Not through `nx serve` or `nx build`: nx holds a task lock under .nx/ per target, so a stack that
// was left running (or a crashed nx) made the next start print "Waiting for api:serve in another nx
// process" and hang; nx also adds a process in between that exits before the app it signals has
// drained, and seconds of project-graph work on a 2-core machine. `nx serve worker` stays for
// developers (ts-node); `npm start` owns its processes directly.
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { spawn, spawnSync } = require('node:child_process');
const { ensureNodeModules, root } = require('./ensure-install');
const { acquireStackLock } = require('./stack-lock');
const { ensureLogDir, openPrivateLog, secureAppDir } = require('./app-dir');
const { forget, processTree, reapWithMe, stopGroup } = require('../processes/process-group');
const { RestartBudget, decide } = require('./supervisor');
const { waitFor } = require('../processes/wait-for');
const { outDirOf, staleApps } = require('../build/build');
const { readAliasMap, registerAliases } = require('../build/alias-register');

// Readiness follows progress (health answers, log output): on a loaded machine the worker's warm-up
// may take a while, but a start that shows no sign of life for READY_IDLE_MS is stuck.
const READY_IDLE_MS = 120_000;
const READY_MAX_MS = 600_000;
const PART_GRACE_MS = 20_000;
const PARTS = ['worker', 'api'];
// Built with the parts, never started: the API serves its files at / (apps/api/src/http/web-ui.ts).
const BUILT_ONLY = ['web'];
// A young generation of 2 MB semi-spaces instead of V8's 16 MB: the parts' resident memory after
// start drops by ~30 MB each (measured with tools/bench/start.bench.js), at the price of more
// frequent scavenges — cheap here, where the heavy CPU work runs on the pool's threads.
const PART_NODE_FLAGS = ['--max-semi-space-size=2'];
// The compiled product runs without ts-node: a TS_NODE_* setting inherited from a development shell
// or a test runner (nx's jest executor sets TS_NODE_COMPILER_OPTIONS) is not passed on.
const partEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('TS_NODE_')));

/** Builds the parts whose compiled tree is missing or older than their sources (tools/build); true when it built. */
function buildStale() {
  const stale = staleApps([...PARTS, ...BUILT_ONLY]);
  if (stale.length === 0) return false;
  console.log(`[build] ${stale.map((s) => `${s.app} (${s.reason})`).join(', ')}: compiling…`);
  const started = Date.now();
  const res = spawnSync(process.execPath, [path.join(root, 'tools/build/build.js'), ...stale.map((s) => s.app)], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) {
    console.error('[jobctrl] the build failed; nothing was started');
    process.exit(1);
  }
  console.log(`[build] done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return true;
}

/**
 * The resolved config, through the compiled config lib of the worker's tree (print-config). Throws
 * what loadConfig throws; the tree's modules are dropped from the require cache afterwards, so a
 * read after a rebuild loads the new ones.
 */
function loadStackConfig() {
  const tree = outDirOf('worker');
  // Only while loading it: this script's own children must not inherit a resolver or a build dir.
  const unregister = registerAliases(readAliasMap(tree));
  try {
    const { stackConfig, isConfigError } = require(path.join(tree, 'tools/stack/print-config.js'));
    try {
      return stackConfig();
    } catch (err) {
      err.isConfigError = isConfigError(err);
      throw err;
    }
  } finally {
    unregister();
    for (const file of Object.keys(require.cache)) if (file.startsWith(tree + path.sep)) delete require.cache[file];
  }
}

/** The config this start runs with (after the build); a bad config.json exits 78 with the key, the value and the rule. */
function readConfig() {
  try {
    return loadStackConfig();
  } catch (err) {
    if (!err.isConfigError) throw err;
    process.stderr.write(`invalid configuration:\n${err.message}\n`);
    process.exit(78);
  }
}

/** The config as the last build reads it, to find the app dir's lock before building; null when there is none yet or it fails. */
function configOfLastBuild() {
  if (!fs.existsSync(path.join(outDirOf('worker'), 'aliases.json'))) return null;
  try {
    return loadStackConfig();
  } catch {
    return null; // the fresh read after the build reports it
  }
}

const apiBase = (config) => `http://${config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host}:${config.api.port}`;

/** Takes the app dir's lock, or says who holds it and exits 1. Released when this process exits. */
function takeStackLock(config) {
  const lock = acquireStackLock(config.appDir, { api: apiBase(config) });
  if (!lock.acquired) {
    const { pid, startedAt, api } = lock.holder;
    console.error(`[jobctrl] already running for ${config.appDir}: pid ${pid} (started ${startedAt}, API ${api}); lock ${lock.file}`);
    console.error(`[jobctrl] stop it first (Ctrl-C in its terminal, or kill ${pid})`);
    process.exit(1);
  }
  if (lock.staleFrom !== null) console.log(`[jobctrl] took over the lock of pid ${lock.staleFrom}, which is no longer running (${lock.file})`);
  return { ...lock, appDir: config.appDir };
}

function getJson(url) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { timeout: 5_000 }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => {
        try {
          resolve(JSON.parse(body));
        } catch (e) {
          reject(e);
        }
      });
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

/** The parts by name: the current process of each (a restart replaces it). */
const parts = new Map();
let stopping = false;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function startPart(name, logFile) {
  const out = openPrivateLog(logFile); // 0600 (#39)
  // Own process group, so stopping a part also stops whatever it started (a SIGINT from the terminal
  // reaches this script only, which stops the parts in order).
  const child = spawn(process.execPath, [...PART_NODE_FLAGS, path.join(outDirOf(name), 'main.js')], {
    cwd: root,
    env: partEnv,
    detached: true,
    stdio: ['ignore', out, out],
  });
  fs.closeSync(out); // the child has its own copy
  // Should this script be SIGKILLed (then nothing here runs), the reaper stops the part.
  reapWithMe(child.pid, PART_GRACE_MS);
  const previous = parts.get(name);
  const part = { name, child, logFile, budget: previous?.budget ?? new RestartBudget(), tree: [] };
  parts.set(name, part);
  // A part killed outright leaves what it started (Chromium, its own groups) re-parented and out of
  // reach from its pid: the tree is followed while it lives, so a restart can clear what is left.
  const follow = setInterval(() => {
    const seen = new Set(part.tree.map((p) => p.pid));
    for (const p of processTree(child.pid)) if (!seen.has(p.pid)) part.tree.push(p);
  }, 1_000);
  follow.unref();
  child.on('exit', (code, signal) => {
    clearInterval(follow);
    if (!stopping) void onPartExit(part, { code, signal });
  });
  return child;
}

/** A part died on its own: restart it (bounded), or stop everything and say why. */
async function onPartExit(part, exit) {
  const decision = decide(part.name, exit, part.budget);
  console.error(decision.message);
  if (decision.action === 'stop') {
    console.error(`[${part.name}] last lines of ${part.logFile}:\n${tail(part.logFile)}`);
    return stopAll(decision.exitCode);
  }
  // Whatever of the dead part is still alive (its browser, its threads' children) goes first.
  await stopGroup(part.child.pid, { graceMs: 5_000, known: part.tree });
  forget(part.child.pid);
  await sleep(decision.delayMs);
  if (stopping) return;
  const child = startPart(part.name, part.logFile);
  console.log(`[${part.name}] restarted (pid ${child.pid}; log ${part.logFile})`);
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

let devServer = null;
// Test-only: a floor under the dev server's restart delay, so a test can see the outage (health says
// degraded) before the server is back; unset, a first restart is immediate.
const DEV_SERVER_RESTART_FLOOR_MS = Number(process.env.JOBCTRL_TEST_DEV_SERVER_RESTART_DELAY_MS ?? 0) || 0;

/**
 * Restarts the embedded dev server whenever it dies on its own, on the same port and history file
 * (the workflows in flight resume from it; the worker's pollers reconnect by themselves), within the
 * restart budget. A restart that fails to come up counts as one more death.
 */
async function superviseDevServer(server, options, startDevServer) {
  const budget = new RestartBudget();
  let exit = await server.exited;
  while (!stopping) {
    const decision = decide('temporal dev server', exit, budget);
    console.error(decision.message);
    if (decision.action === 'stop') {
      console.error(`[temporal] history kept in ${options.dbFilename}; last lines of ${options.logFile}:\n${tail(options.logFile)}`);
      return stopAll(decision.exitCode);
    }
    await sleep(Math.max(decision.delayMs, DEV_SERVER_RESTART_FLOOR_MS));
    if (stopping) return;
    try {
      const next = await startDevServer(options);
      devServer = next;
      if (stopping) return next.stop();
      console.log(`[temporal] dev server restarted on ${next.address} (history in ${options.dbFilename}; pid ${next.pid})`);
      exit = await next.exited;
    } catch (err) {
      if (stopping) return;
      console.error(`[temporal] the restart failed: ${String(err && err.message).split('\n')[0]}`);
      exit = { code: 1, signal: null };
    }
  }
}

/**
 * Stops one part's whole process group: SIGTERM, 20 s to drain (the worker finishes in-flight
 * activities), then SIGKILL.
 */
async function stopPart({ name, child }) {
  await stopGroup(child.pid, {
    graceMs: PART_GRACE_MS,
    onForce: (left) => console.error(`[${name}] did not stop in ${PART_GRACE_MS / 1000} s; killing ${left.join(', ')}`),
  });
  forget(child.pid);
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('[jobctrl] stopping…');
  await Promise.all([...parts.values()].map(stopPart));
  if (devServer) await devServer.stop();
  console.log('[jobctrl] stopped');
  process.exit(code);
}

async function main() {
  ensureNodeModules();
  // Before anything is built or started: a second stack on the same app dir would share its database
  // and ports, and a rebuild would rewrite the tree the running one loads from. The app dir comes
  // from the last build's config lib; the first start on a clean tree builds before it can know it.
  const early = configOfLastBuild();
  let lock = early ? takeStackLock(early) : null;
  const built = buildStale();
  // Read again only through a new build (a config error is reported by this read).
  const config = early && !built ? early : readConfig();
  if (lock === null || lock.appDir !== config.appDir) {
    lock?.release();
    lock = takeStackLock(config);
  }
  // The lock goes with this process (stack-lock.js removes it on exit, which every stop path reaches).
  // The parts run from the repo root: hand them the exact file this start resolved.
  partEnv.JOBCTRL_CONFIG = config.configPath;
  // Private to this user (#39): a new app dir is made 0700, and one an older version left 0755 with
  // 0644 files is tightened before anything writes to it (app-dir.js says what and why). Explicit
  // modes, not a umask for this whole script: it also installs packages and builds the tree, whose
  // files must stay readable as usual.
  const tightened = secureAppDir(config.appDir, { databasePath: config.databasePath });
  if (tightened.length > 0) console.log(`[jobctrl] made private to this user (0700 folders, 0600 files): ${tightened.join(', ')}`);
  const logDir = ensureLogDir(config.appDir);
  const base = apiBase(config);

  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));
  process.on('SIGHUP', () => void stopAll(0));

  // The parts start while the embedded dev server is still starting (both take seconds; the worker
  // loads, migrates and warms meanwhile and waits for the server's port), instead of one after the other.
  let temporalAddress = config.temporal.address;
  let devServerStarted = Promise.resolve();
  if (temporalAddress === null) {
    const { ensureTemporalCli } = require('../temporal/install');
    const { startDevServer } = require('../temporal/dev-server');
    await ensureTemporalCli();
    temporalAddress = `127.0.0.1:${config.temporal.devServerPort}`;
    partEnv.JOBCTRL_TEMPORAL_CONNECT_WAIT_MS = String(READY_IDLE_MS);
    const serverOptions = {
      port: config.temporal.devServerPort,
      dbFilename: path.join(config.appDir, 'temporal.sqlite'),
      logFile: path.join(logDir, 'temporal.log'),
    };
    devServerStarted = startDevServer(serverOptions).then((server) => {
      devServer = server;
      if (stopping) return server.stop();
      console.log(`[temporal] dev server listening on ${server.address} (history in ${serverOptions.dbFilename}; pid ${server.pid})`);
      void superviseDevServer(server, serverOptions, startDevServer);
    });
  } else {
    console.log(`[temporal] using existing server at ${temporalAddress} (namespace ${config.temporal.namespace}); nothing started locally`);
  }

  startPart('worker', path.join(logDir, 'worker.log'));
  startPart('api', path.join(logDir, 'api.log'));
  console.log(`[worker] starting on task queue ${config.temporal.taskQueue} (log ${path.join(logDir, 'worker.log')})`);
  console.log(`[api] starting on ${base} (log ${path.join(logDir, 'api.log')})`);
  // A dev server that cannot start stops the parts too (the catch below).
  await devServerStarted;

  const logSize = (name) => (fs.existsSync(path.join(logDir, `${name}.log`)) ? fs.statSync(path.join(logDir, `${name}.log`)).size : 0);
  try {
    const health = await waitFor(
      async () => {
        if (stopping) return { done: null };
        const logs = [logSize('worker'), logSize('api')];
        const body = await getJson(`${base}/v1/health`).catch((err) => ({ error: err.message }));
        if (body.worker && body.worker.status === 'ready') return { done: body };
        return { progress: { logs, worker: body.worker ? `${body.worker.status}: ${body.worker.reason}` : null, error: body.error ?? null } };
      },
      // Polled often: the worker's first heartbeat is the moment it is ready, and the start's time is measured to this line.
      { what: 'the API to report the worker ready', idleTimeoutMs: READY_IDLE_MS, maxMs: READY_MAX_MS, intervalMs: 200 },
    );
    if (health === null) return; // a part died meanwhile; stopAll is under way
    console.log(`[jobctrl] ready: open the UI at ${base}/ — API ${base} (GET ${base}/v1/health, docs ${base}/v1/docs), worker ${health.worker.newest.workerId}, Temporal ${temporalAddress}`);
    console.log('[jobctrl] press Ctrl-C to stop everything');
  } catch (err) {
    if (stopping) return;
    console.error(`[jobctrl] not ready: ${err.message}`);
    await stopAll(1);
  }
}

main().catch(async (err) => {
  console.error('[jobctrl] failed to start:', err && err.stack ? err.stack : err);
  await stopAll(1);
});
