// The test helpers on real processes: a suite that fails (test timeout, a stuck run's idle deadline,
// Ctrl-C) leaves none of its processes behind, also those in groups of their own that ignore SIGTERM.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pidAlive, processTree, spawnGroup, waitFor } from './index';

const root = path.resolve(__dirname, '..', '..', '..');
const projectDir = path.resolve(__dirname, '..');

/** A jest of its own on fixtures/leaky.fixture.ts, itself a group this suite stops if it fails. */
function runLeakySuite(mode: 'timeout' | 'deadline' | 'hang', pidsFile: string) {
  const config = {
    rootDir: projectDir,
    testMatch: ['<rootDir>/src/fixtures/leaky.fixture.ts'],
    transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
    moduleFileExtensions: ['ts', 'js', 'json'],
    testEnvironment: 'node',
    testTimeout: mode === 'timeout' ? 1_000 : 60_000,
  };
  const jest = require.resolve('jest/bin/jest.js', { paths: [root] });
  return spawnGroup(process.execPath, [jest, '--config', JSON.stringify(config), '--ci', '--colors=false'], {
    cwd: root,
    env: { ...process.env, LEAKY_PIDS_FILE: pidsFile, LEAKY_MODE: mode, JOBCTRL_TEST_SUMMARY: '' },
  });
}

async function pidsWritten(file: string): Promise<number[]> {
  return waitFor(() => (fs.existsSync(file) && fs.statSync(file).size > 0 ? { done: JSON.parse(fs.readFileSync(file, 'utf8')) as number[] } : { progress: null }), {
    what: 'the leaky suite to start its processes',
    idleTimeoutMs: 60_000,
  });
}

describe('spawnGroup: nothing of a failed suite survives', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-cleanup-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(['timeout', 'deadline'] as const)('a test that fails by %s: its processes and the suite’s are gone when jest exits', async (mode) => {
    const pidsFile = path.join(dir, 'pids.json');
    const jest = runLeakySuite(mode, pidsFile);
    const code = await jest.exited;
    expect(jest.output()).toContain(mode === 'timeout' ? 'Exceeded timeout' : 'timed out waiting for a stuck run: no progress');
    expect(code).toBe(1);
    // jest exited by itself: the timed-out test's wait stopped with the test (no open handle left).
    expect(jest.output()).not.toContain('Jest did not exit');
    const pids = JSON.parse(fs.readFileSync(pidsFile, 'utf8')) as number[];
    expect(pids).toHaveLength(4); // two trees of parent + stubborn grandchild
    expect(pids.filter(pidAlive)).toEqual([]);
  });

  it('Ctrl-C of the jest process stops them too', async () => {
    const pidsFile = path.join(dir, 'pids.json');
    const jest = runLeakySuite('hang', pidsFile);
    const pids = await pidsWritten(pidsFile);
    expect(pids.every(pidAlive)).toBe(true);
    process.kill(-jest.pid, 'SIGINT'); // as a terminal does: to the whole foreground group
    await jest.exited;
    await waitFor(() => (pids.some(pidAlive) ? { progress: pids.filter(pidAlive) } : { done: true }), { what: 'the leaked processes to die', idleTimeoutMs: 30_000 });
    expect(pids.filter(pidAlive)).toEqual([]);
  });

  it('stop() ends the group and the tree beyond it, SIGKILLing what ignores SIGTERM', async () => {
    const child = spawnGroup(process.execPath, [
      '-e',
      `const { spawn } = require('node:child_process');
       const s = spawn(process.execPath, ['-e', "process.on('SIGTERM', () => {}); setInterval(() => {}, 1000)"], { detached: true, stdio: 'ignore' });
       process.on('SIGTERM', () => {}); console.log('started ' + s.pid); setInterval(() => {}, 1000);`,
    ]);
    await waitFor(() => (child.output().includes('started') ? { done: true } : { progress: null }), { idleTimeoutMs: 30_000 });
    const tree = processTree(child.pid);
    expect(tree).toHaveLength(2);
    expect(tree[1].pgid).toBe(tree[1].pid); // the grandchild leads a group of its own
    await child.stop(300);
    expect(tree.map((p) => p.pid).filter(pidAlive)).toEqual([]);
  });
});

describe('waitFor', () => {
  it('keeps waiting past the idle timeout while the progress signature changes', async () => {
    let calls = 0;
    // 60 probes 20 ms apart take well over the 500 ms idle timeout, but every probe moves.
    const value = await waitFor(() => (++calls >= 60 ? { done: calls } : { progress: { completed: calls } }), { idleTimeoutMs: 500, intervalMs: 20 });
    expect(value).toBe(60);
  });

  it('fails after the idle timeout without movement, naming what and the last progress', async () => {
    await expect(waitFor(() => ({ progress: { completed: 2, total: 3 } }), { what: 'the run', idleTimeoutMs: 100, intervalMs: 10 })).rejects.toThrow(
      /timed out waiting for the run: no progress for \d+ s .*last progress \{"completed":2,"total":3\}/,
    );
  });

  it('fails at the absolute cap even while it moves, and reports the last probe error', async () => {
    let calls = 0;
    const probe = () => {
      calls++;
      if (calls % 2 === 0) throw new Error('connection refused');
      return { progress: calls };
    };
    await expect(waitFor(probe, { what: 'the API', idleTimeoutMs: 10_000, maxMs: 200, intervalMs: 10 })).rejects.toThrow(
      /timed out waiting for the API: still not done at the 0 s cap/,
    );
  });
});
