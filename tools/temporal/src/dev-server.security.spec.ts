// Security issue #39: the embedded dev server is not an open door. Against a real `temporal server
// start-dev`: every socket it listens on is bound to loopback, and a web page's cross-origin "simple"
// POST (no preflight: Content-Type text/plain) to any of them cannot start a workflow — checked
// afterwards over gRPC, the way the apps talk to it. The state it writes is private to its user.
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { Connection } from '@temporalio/client';
import { DevServer, startDevServer } from './index';

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

interface Listener {
  address: string;
  port: number;
}

/** '0100007F:1F90' (little-endian IPv4, big-endian port, as /proc/net/tcp prints them) -> 127.0.0.1:8080. */
function decodeV4(hex: string): Listener {
  const [ip, port] = hex.split(':');
  const bytes = (ip.match(/../g) ?? []).map((b) => parseInt(b, 16)).reverse();
  return { address: bytes.join('.'), port: parseInt(port, 16) };
}

/** IPv6 in /proc/net/tcp6: four 32-bit words, each little-endian. Only what we need to tell loopback from the rest. */
function decodeV6(hex: string): Listener {
  const [ip, port] = hex.split(':');
  const bytes = (ip.match(/.{8}/g) ?? []).flatMap((word) => (word.match(/../g) ?? []).reverse());
  const groups = (bytes.join('').match(/.{4}/g) ?? []).map((g) => parseInt(g, 16).toString(16));
  return { address: groups.join(':'), port: parseInt(port, 16) };
}

/**
 * The TCP sockets `pid` listens on, from /proc (no ss/netstat needed): its descriptors name socket
 * inodes, /proc/net/tcp{,6} lists the listening sockets (state 0A) with their inode.
 */
function listeningSockets(pid: number): Listener[] {
  const inodes = new Set<string>();
  for (const fd of fs.readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]);
    } catch {
      // a descriptor closed while we read the directory
    }
  }
  const found: Listener[] = [];
  for (const [file, decode] of [
    ['/proc/net/tcp', decodeV4],
    ['/proc/net/tcp6', decodeV6],
  ] as const) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9])) continue;
      found.push(decode(cols[1]));
    }
  }
  return found;
}

/** What a browser can send without a CORS preflight: POST, text/plain, and its own Origin. */
function crossOriginSimplePost(port: number, workflowId: string): Promise<{ status: number; body: string } | { error: string }> {
  const body = JSON.stringify({
    workflowId,
    workflowType: { name: 'anything' },
    taskQueue: { name: 'jobctrl-default' },
  });
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: `/api/v1/namespaces/default/workflows/${workflowId}`,
        headers: { Origin: 'http://evil.example', 'Content-Type': 'text/plain', 'Content-Length': Buffer.byteLength(body) },
        timeout: 5_000,
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
        res.on('error', (err) => resolve({ error: err.message }));
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err) => resolve({ error: err.message }));
    req.end(body);
  });
}

/** The workflow's status over gRPC, or 'not found'. */
async function workflowStatus(address: string, workflowId: string): Promise<string> {
  const connection = Connection.lazy({ address, connectTimeout: 5_000 });
  try {
    const res = await connection.workflowService.describeWorkflowExecution({ namespace: 'default', execution: { workflowId } });
    return String(res.workflowExecutionInfo?.status);
  } catch (err) {
    if ((err as { code?: number }).code === 5) return 'not found'; // gRPC NOT_FOUND
    throw err;
  } finally {
    await connection.close();
  }
}

describe('the embedded Temporal dev server is not an open door (#39)', () => {
  it('listens on loopback only, and no cross-origin simple POST to any of its ports starts a workflow', async () => {
    const server = await start();
    const sockets = listeningSockets(server.pid);
    // The frontend gRPC port is among them; history, matching and the system worker have gRPC ports
    // of their own, and CLI 1.9.1 always opens the HTTP API and the /metrics endpoint: all on 127.0.0.1.
    expect(sockets).toContainEqual({ address: '127.0.0.1', port: server.port });
    expect(sockets.filter((s) => s.address !== '127.0.0.1')).toEqual([]);
    // --headless: no Web UI (it would listen on the gRPC port + 1000).
    expect(sockets.map((s) => s.port)).not.toContain(server.port + 1000);

    const answers = await Promise.all(sockets.map(async (s) => ({ port: s.port, answer: await crossOriginSimplePost(s.port, 'x') })));
    expect(answers.filter(({ answer }) => 'status' in answer && answer.status >= 200 && answer.status < 300)).toEqual([]);
    await expect(workflowStatus(server.address, 'x')).resolves.toBe('not found');
    // Not by luck (a moved route would also start nothing): the HTTP API is there — CLI 1.9.1 cannot
    // turn it off — and refuses the request before any handler runs.
    const refused = answers.filter(({ answer }) => 'status' in answer && answer.status === 403 && answer.body.includes('Host not allowed'));
    expect(refused).toHaveLength(1);
  });

  it('keeps its history private: the SQLite file 0600 in a 0700 folder, the log 0600, also for an existing 0644 history', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-temporal-modes-'));
    const appDir = path.join(root, 'app');
    const dbFilename = path.join(appDir, 'temporal.sqlite');
    const logFile = path.join(appDir, 'logs', 'temporal.log');
    const mode = (file: string) => fs.statSync(file).mode & 0o777;

    const first = await start({ dbFilename, logFile });
    expect(mode(appDir)).toBe(0o700);
    expect(mode(path.dirname(logFile))).toBe(0o700);
    expect(mode(logFile)).toBe(0o600);
    for (const file of [dbFilename, `${dbFilename}-wal`, `${dbFilename}-shm`]) if (fs.existsSync(file)) expect([file, mode(file)]).toEqual([file, 0o600]);
    await first.stop();

    // An install from before #39: the history and its log readable by everyone.
    fs.chmodSync(dbFilename, 0o644);
    fs.chmodSync(logFile, 0o644);
    const second = await start({ dbFilename, logFile });
    expect(mode(dbFilename)).toBe(0o600);
    expect(mode(logFile)).toBe(0o600);
    await second.stop();
  });
});
