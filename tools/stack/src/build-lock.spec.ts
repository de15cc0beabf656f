// The build lock (tools/build/build-lock.js): two processes building dist/ at once take turns, and a
// lock left by a dead process or a crash between mkdir and the owner file does not block a build.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';

const LOCK_JS = path.join(__dirname, '..', '..', 'build', 'build-lock.js');
const { acquireBuildLock } = require(LOCK_JS) as {
  acquireBuildLock(lockDir: string, opts?: { pollMs?: number; orphanMs?: number; onWait?: (pid: number) => void }): Promise<{ waitedFor: number | null; release(): void }>;
};

/** A process that has already exited (its pid is free). */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('build lock', () => {
  let dir: string;
  let lockDir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-build-lock-'));
    lockDir = path.join(dir, 'dist', '.build-lock');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('two builders take turns: the second enters after the first left and says whom it waited for', async () => {
    const log = path.join(dir, 'log');
    // Each holds the lock while it "builds" (writes enter, sleeps, writes exit): no interleaving allowed.
    const script = `
      const fs = require('node:fs');
      require(${JSON.stringify(LOCK_JS)}).acquireBuildLock(${JSON.stringify(lockDir)}, { pollMs: 20 }).then(async (lock) => {
        fs.appendFileSync(${JSON.stringify(log)}, 'enter ' + process.pid + '\\n');
        await new Promise((r) => setTimeout(r, 300));
        fs.appendFileSync(${JSON.stringify(log)}, 'exit ' + process.pid + '\\n');
        lock.release();
        process.stdout.write(String(lock.waitedFor));
      });`;
    const run = () =>
      new Promise<{ pid: number; out: string }>((resolve, reject) => {
        const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
        let out = '';
        child.stdout.on('data', (c) => (out += c));
        child.on('error', reject);
        child.on('exit', (code) => (code === 0 ? resolve({ pid: child.pid as number, out }) : reject(new Error(`exit ${code}`))));
      });
    const [a, b] = await Promise.all([run(), run()]);
    const lines = fs.readFileSync(log, 'utf8').trim().split('\n');
    const first = Number(lines[0].split(' ')[1]);
    const second = first === a.pid ? b.pid : a.pid;
    expect(lines).toEqual([`enter ${first}`, `exit ${first}`, `enter ${second}`, `exit ${second}`]);
    // The one that waited names the other (it re-checks what is still stale after it).
    const outs = Object.fromEntries([a, b].map((r) => [r.pid, r.out]));
    expect(outs[first]).toBe('null');
    expect(outs[second]).toBe(String(first));
    expect(fs.existsSync(lockDir)).toBe(false);
  });

  it('a lock left by a process that died is taken over at once', async () => {
    fs.mkdirSync(lockDir, { recursive: true });
    fs.writeFileSync(path.join(lockDir, 'owner.json'), JSON.stringify({ pid: deadPid() }));
    const lock = await acquireBuildLock(lockDir, { pollMs: 20 });
    expect(lock.waitedFor).toBeNull();
    expect(JSON.parse(fs.readFileSync(path.join(lockDir, 'owner.json'), 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(fs.existsSync(lockDir)).toBe(false);
  });

  it('a lock without an owner file is left alone while young, taken over once old', async () => {
    fs.mkdirSync(lockDir, { recursive: true });
    let waited = false;
    const young = acquireBuildLock(lockDir, { pollMs: 20, orphanMs: 60_000, onWait: () => (waited = true) });
    const settled = await Promise.race([young.then(() => 'acquired'), new Promise((r) => setTimeout(() => r('waiting'), 300))]);
    expect(settled).toBe('waiting');
    expect(waited).toBe(false);
    // Old now: the owner crashed between mkdir and writing owner.json.
    const old = new Date(Date.now() - 120_000);
    fs.utimesSync(lockDir, old, old);
    const lock = await young;
    expect(lock.waitedFor).toBeNull();
    lock.release();
  });
});
