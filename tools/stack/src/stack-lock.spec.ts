// The one-stack-per-app-dir lock of `npm start`, held by real processes on a real directory.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { spawnGroup, waitFor } from '@jobctrl/tools/processes';

const LOCK_JS = path.resolve(__dirname, '..', 'stack-lock.js');
const { acquireStackLock } = require(LOCK_JS) as {
  acquireStackLock(appDir: string, details?: Record<string, unknown>):
    | { acquired: true; file: string; staleFrom: number | null; release(): void }
    | { acquired: false; file: string; holder: { pid: number; startTime: string | null; startedAt: string; api?: string } };
};

/** A node process that takes the lock, prints the result, then ends as `end` says. */
function holder(appDir: string, end: 'wait' | 'exit' | 'throw') {
  const script = `const r = require(${JSON.stringify(LOCK_JS)}).acquireStackLock(${JSON.stringify(appDir)}, { api: 'http://127.0.0.1:1' });
    console.log(JSON.stringify({ acquired: r.acquired, staleFrom: r.staleFrom ?? null }));
    ${end === 'wait' ? 'setInterval(() => {}, 1000);' : end === 'throw' ? 'setTimeout(() => { throw new Error("part died"); }, 10);' : 'process.exit(1);'}`;
  return script;
}

describe('stack lock (<app_dir>/jobctrl.pid)', () => {
  let appDir: string;
  beforeEach(() => {
    appDir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-lock-')), 'data');
  });
  afterEach(() => fs.rmSync(path.dirname(appDir), { recursive: true, force: true }));

  it('a second taker is refused with the pid of the running holder; the lock goes when the holder ends', async () => {
    const first = spawnGroup(process.execPath, ['-e', holder(appDir, 'wait')]);
    await waitFor(() => (first.output().includes('"acquired"') ? { done: true } : { progress: first.output() }), { idleTimeoutMs: 30_000 });
    expect(JSON.parse(first.output())).toEqual({ acquired: true, staleFrom: null });

    const second = acquireStackLock(appDir);
    expect(second).toMatchObject({ acquired: false, file: path.join(appDir, 'jobctrl.pid'), holder: { pid: first.pid, api: 'http://127.0.0.1:1' } });

    await first.stop();
    // Killed by SIGTERM without a handler: no exit hook ran, so the lock is stale — and taken over.
    expect(fs.existsSync(path.join(appDir, 'jobctrl.pid'))).toBe(true);
    const third = acquireStackLock(appDir);
    expect(third).toMatchObject({ acquired: true, staleFrom: first.pid });
    if (third.acquired) third.release();
    expect(fs.existsSync(path.join(appDir, 'jobctrl.pid'))).toBe(false);
  });

  it.each(['exit', 'throw'] as const)('a holder that ends by %s removes its lock', (end) => {
    const res = spawnSync(process.execPath, ['-e', holder(appDir, end)], { encoding: 'utf8', timeout: 30_000 });
    expect(res.status).toBe(1);
    expect(JSON.parse(res.stdout.split('\n')[0])).toEqual({ acquired: true, staleFrom: null });
    expect(fs.existsSync(path.join(appDir, 'jobctrl.pid'))).toBe(false);
  });

  it('a live pid that is another process now (pid reused) does not hold the lock', () => {
    fs.mkdirSync(appDir, { recursive: true });
    // Our own pid, but with a start time that is not ours: the holder it names is long gone.
    fs.writeFileSync(path.join(appDir, 'jobctrl.pid'), JSON.stringify({ pid: process.pid, startTime: '1', startedAt: '2020-01-01T00:00:00Z' }));
    const lock = acquireStackLock(appDir);
    expect(lock).toMatchObject({ acquired: true, staleFrom: process.pid });
    if (lock.acquired) lock.release();
  });
});
