#!/usr/bin/env node
// `npm start`: installs what is missing, starts the Temporal dev server (unless TEMPORAL_ADDRESS or
// temporal_address points elsewhere), the worker (`nx serve worker`) and the API (`nx serve api`),
// waits until the API reports the worker ready, and says where each listens. Ctrl-C (or SIGTERM)
// stops everything it started; if one part exits, the rest are stopped too, so nothing is left behind.
const fs = require('node:fs');
const path = require('node:path');
const http = require('node:http');
const { spawn, spawnSync } = require('node:child_process');
const { ensureNodeModules, root } = require('./ensure-install');

const READY_TIMEOUT_MS = 120_000;
const tsNode = ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register'];
const tsEnv = { ...process.env, TS_NODE_PROJECT: path.join(root, 'tsconfig.base.json'), NX_DAEMON: 'false', NX_TUI: 'false', NX_NO_CLOUD: 'true' };

function readConfig() {
  const res = spawnSync(process.execPath, [...tsNode, path.join(__dirname, 'print-config.ts')], { cwd: process.cwd(), env: tsEnv, encoding: 'utf8' });
  if (res.status !== 0) {
    process.stderr.write(res.stderr);
    process.exit(res.status === 78 ? 78 : 1);
  }
  return JSON.parse(res.stdout);
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

const children = [];
let stopping = false;

function startPart(name, project, logFile) {
  const nx = require.resolve('nx/bin/nx.js', { paths: [root] });
  const out = fs.openSync(logFile, 'a');
  // Own process group, so stopping it also stops the node process that nx started.
  const child = spawn(process.execPath, [nx, 'serve', project, '--skip-nx-cache', '--outputStyle=stream'], {
    cwd: root,
    env: tsEnv,
    detached: true,
    stdio: ['ignore', out, out],
  });
  children.push({ name, child, logFile });
  child.on('exit', (code, signal) => {
    if (!stopping) {
      console.error(`[${name}] exited (${signal ?? code}); last lines of ${logFile}:\n${tail(logFile)}`);
      void stopAll(1);
    }
  });
  return child;
}

function tail(file, lines = 25) {
  try {
    return fs.readFileSync(file, 'utf8').trim().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

let devServer = null;

function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Stops one part's whole process group: nx exits as soon as it forwards the signal, while the node
 * process it started may still be draining, so we wait for the group to be empty, not for nx.
 */
async function stopGroup(child) {
  const pgid = child.pid;
  if (!groupAlive(pgid)) return;
  try {
    process.kill(-pgid, 'SIGTERM');
  } catch {
    return;
  }
  const deadline = Date.now() + 20_000;
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (groupAlive(pgid)) {
    console.error(`[jobctrl] process group ${pgid} did not stop in 20 s; killing it`);
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      /* already gone */
    }
  }
}

async function stopAll(code) {
  if (stopping) return;
  stopping = true;
  console.log('[jobctrl] stopping…');
  await Promise.all(children.map(({ child }) => stopGroup(child)));
  if (devServer) await devServer.stop();
  console.log('[jobctrl] stopped');
  process.exit(code);
}

async function main() {
  ensureNodeModules();
  const config = readConfig();
  // The parts run from the repo root: hand them the exact file this start resolved.
  tsEnv.JOBCTRL_CONFIG = config.configPath;
  const logDir = path.join(config.appDir, 'logs');
  fs.mkdirSync(logDir, { recursive: true });

  process.on('SIGINT', () => void stopAll(0));
  process.on('SIGTERM', () => void stopAll(0));

  let temporalAddress = config.temporal.address;
  if (temporalAddress === null) {
    const { ensureTemporalCli } = require('../temporal/install');
    const { startDevServer } = require('../temporal/dev-server');
    await ensureTemporalCli();
    devServer = await startDevServer({
      port: config.temporal.devServerPort,
      dbFilename: path.join(config.appDir, 'temporal.sqlite'),
      logFile: path.join(logDir, 'temporal.log'),
    });
    temporalAddress = devServer.address;
    console.log(`[temporal] dev server listening on ${temporalAddress} (history in ${path.join(config.appDir, 'temporal.sqlite')})`);
  } else {
    console.log(`[temporal] using existing server at ${temporalAddress} (namespace ${config.temporal.namespace}); nothing started locally`);
  }

  startPart('worker', 'worker', path.join(logDir, 'worker.log'));
  startPart('api', 'api', path.join(logDir, 'api.log'));
  const base = `http://${config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host}:${config.api.port}`;
  console.log(`[worker] starting on task queue ${config.temporal.taskQueue} (log ${path.join(logDir, 'worker.log')})`);
  console.log(`[api] starting on ${base} (log ${path.join(logDir, 'api.log')})`);

  const deadline = Date.now() + READY_TIMEOUT_MS;
  let last = 'API not answering yet';
  while (Date.now() < deadline && !stopping) {
    try {
      const health = await getJson(`${base}/v1/health`);
      if (health.worker && health.worker.status === 'ready') {
        console.log(`[jobctrl] ready: API ${base} (GET ${base}/v1/health), worker ${health.worker.newest.workerId}, Temporal ${temporalAddress}`);
        console.log('[jobctrl] press Ctrl-C to stop everything');
        return;
      }
      last = `worker ${health.worker ? health.worker.status : 'unknown'}: ${health.worker ? health.worker.reason : ''}`;
    } catch (err) {
      last = `API not answering yet (${err.message})`;
    }
    await new Promise((r) => setTimeout(r, 1_000));
  }
  if (!stopping) {
    console.error(`[jobctrl] not ready after ${READY_TIMEOUT_MS / 1000} s: ${last}`);
    await stopAll(1);
  }
}

main().catch(async (err) => {
  console.error('[jobctrl] failed to start:', err && err.stack ? err.stack : err);
  await stopAll(1);
});
