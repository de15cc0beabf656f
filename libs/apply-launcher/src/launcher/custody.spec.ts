import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { inspectCustody, recoverCustody } from './custody';
import {
  BIRTH_INTENT_FILE,
  CLEANUP_FAILED_FILE,
  LIFETIME_FILE,
  RELEASE_FILE,
  InvalidCustodyPartError,
  writeDurableOnce,
  type BirthIntent,
  type LifetimeRecord,
  type ReleaseRecord,
} from './custody.files';
import { bootId } from './proc.inventory';
import { stopOwnedProcesses } from './session.cleanup';
import { CHROMIUM, killSurvivorsUnder, makeTestRoot, pidAlive, survivorsUnder } from './testing/launcher.test-support';

const root = makeTestRoot('apply-custody');
const appDir = path.join(root, 'app');
const repoRoot = path.resolve(__dirname, '..', '..', '..', '..');

afterEach(() => {
  expect(survivorsUnder(root)).toEqual([]);
});

afterAll(() => {
  expect(killSurvivorsUnder(root)).toEqual([]);
});

/** An attempt directory as a launcher leaves it, written by hand (no browser). */
function attempt(jobKey: string, runId: string, files: { birth?: Partial<BirthIntent>; lifetime?: Partial<LifetimeRecord> | null; failed?: boolean; released?: boolean } = {}): string {
  const dir = path.join(appDir, 'apply', 'local', jobKey, `${runId}-1-${randomBytes(6).toString('hex')}`);
  fs.mkdirSync(dir, { recursive: true });
  const birth: BirthIntent = {
    tenant: 'local',
    jobKey,
    runId,
    attempt: 1,
    nonce: randomBytes(16).toString('hex'),
    owner: 'gone-worker',
    ownerPid: 999_999_999, // never a live pid
    ownerStartTime: 1,
    bootId: bootId(),
    hostname: os.hostname(),
    createdAt: new Date().toISOString(),
    ...files.birth,
  };
  writeDurableOnce(path.join(dir, BIRTH_INTENT_FILE), birth);
  if (files.lifetime !== null) {
    const pid = 999_999_998;
    writeDurableOnce(path.join(dir, LIFETIME_FILE), {
      tenant: 'local', jobKey, runId, attempt: 1, nonce: birth.nonce, pid, sessionId: pid, startTime: 1, bootId: birth.bootId, endpoint: null, writtenAt: birth.createdAt, ...files.lifetime,
    } satisfies LifetimeRecord);
  }
  if (files.failed) writeDurableOnce(path.join(dir, CLEANUP_FAILED_FILE), { nonce: birth.nonce, failedAt: birth.createdAt, reason: 'a survivor', survivors: [1234] });
  if (files.released) writeDurableOnce(path.join(dir, RELEASE_FILE), { nonce: birth.nonce, releasedAt: birth.createdAt, how: 'closed', trackedCleanup: true, fullTreeVerified: true });
  return dir;
}

describe('inspectCustody (from the files)', () => {
  it('is free without attempts, and with released attempts or directories that never got a birth intent', () => {
    expect(inspectCustody(appDir, 'local', 'nothing')).toEqual({ state: 'free' });
    attempt('released', 'run-1', { released: true });
    fs.mkdirSync(path.join(appDir, 'apply', 'local', 'released', 'run-2-1-000000000000'));
    expect(inspectCustody(appDir, 'local', 'released')).toEqual({ state: 'free' });
  });

  it('a birth intent without a release holds the job, naming the run and whether its owner still runs', () => {
    const dir = attempt('held', 'run-7', { lifetime: null });
    expect(inspectCustody(appDir, 'local', 'held')).toMatchObject({ state: 'held', runId: 'run-7', attempt: 1, attemptDir: dir, ownerAlive: false });
    expect(inspectCustody(appDir, 'local', 'held').reason).toContain('needs recovery');
  });

  it('a recorded cleanup failure (or an unreadable file) blocks the job, and only that job', () => {
    attempt('failed', 'run-1', { failed: true });
    attempt('failed', 'run-2', { released: true });
    expect(inspectCustody(appDir, 'local', 'failed')).toMatchObject({ state: 'cleanup_failed', runId: 'run-1' });
    expect(inspectCustody(appDir, 'local', 'failed').reason).toContain('a survivor');
    const dir = attempt('garbled', 'run-1');
    fs.writeFileSync(path.join(dir, LIFETIME_FILE), '{"pid": 12');
    expect(inspectCustody(appDir, 'local', 'garbled')).toMatchObject({ state: 'cleanup_failed', attemptDir: dir });
    expect(inspectCustody(appDir, 'local', 'other-job')).toEqual({ state: 'free' });
  });

  it('refuses names that would leave the apply tree', () => {
    expect(() => inspectCustody(appDir, 'local', '../escape')).toThrow(InvalidCustodyPartError);
    expect(() => inspectCustody(appDir, '..', 'job')).toThrow(InvalidCustodyPartError);
  });
});

describe('recoverCustody refusals (custody stays as it was)', () => {
  it.each([
    ['lifetime_missing', { lifetime: null }],
    ['lifetime_replaced', { lifetime: { nonce: 'f'.repeat(32) } }],
    ['lifetime_replaced', { lifetime: { runId: 'run-other' } }],
    ['session_invalid', { lifetime: { sessionId: 0 } }],
    ['cleanup_failed', { failed: true }],
  ] as const)('%s', async (refusal, files) => {
    const jobKey = `refuse-${randomBytes(4).toString('hex')}`;
    attempt(jobKey, 'run-1', files as never);
    const before = inspectCustody(appDir, 'local', jobKey);
    expect(await recoverCustody(appDir, { tenant: 'local', jobKey, runId: 'run-1' })).toMatchObject({ recovered: false, refusal });
    expect(inspectCustody(appDir, 'local', jobKey)).toEqual(before);
  });

  it('refuses another run, a live owner and an owner the caller no longer confirms', async () => {
    attempt('mine', 'run-1');
    expect(await recoverCustody(appDir, { tenant: 'local', jobKey: 'mine', runId: 'run-2' })).toMatchObject({ recovered: false, refusal: 'nothing_to_recover' });
    expect(await recoverCustody(appDir, { tenant: 'local', jobKey: 'mine', runId: 'run-1' }, { confirmOwner: async () => false })).toMatchObject({
      recovered: false,
      refusal: 'not_canonical_owner',
    });
    const self = fs.readFileSync('/proc/self/stat', 'utf8');
    const startTime = Number(self.slice(self.lastIndexOf(')') + 2).split(' ')[19]);
    attempt('alive', 'run-1', { birth: { ownerPid: process.pid, ownerStartTime: startTime } });
    expect(await recoverCustody(appDir, { tenant: 'local', jobKey: 'alive', runId: 'run-1' })).toMatchObject({ recovered: false, refusal: 'owner_alive' });
    expect(inspectCustody(appDir, 'local', 'mine')).toMatchObject({ state: 'held' });
  });
});

describe('owner crash', () => {
  it('kill -9 of the owner leaves the job held with its browser up; recoverCustody ends the session, proves it and releases', async () => {
    const options = { appDir, tenant: 'local', jobKey: 'crash', runId: 'run-9', attempt: 1, owner: 'doomed-worker', executablePath: CHROMIUM };
    const owner = spawn(
      process.execPath,
      ['-r', 'ts-node/register/transpile-only', '-r', 'tsconfig-paths/register', path.join(__dirname, 'testing', 'apply-owner.fixture.ts'), JSON.stringify(options)],
      { cwd: repoRoot, env: { ...process.env, TS_NODE_PROJECT: path.join(repoRoot, 'tsconfig.base.json') }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    owner.stdout.on('data', (c: Buffer) => (out += c.toString()));
    owner.stderr.on('data', (c: Buffer) => (err += c.toString()));
    try {
      const launched = await new Promise<{ attemptDir: string; pid: number }>((resolve, reject) => {
        owner.stdout.on('data', () => {
          if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]) as { attemptDir: string; pid: number });
        });
        owner.once('exit', (code) => reject(new Error(`the owner exited (${code}) before launching:\n${err}`)));
      });
      const ownerExit = new Promise((resolve) => owner.once('exit', resolve));
      owner.kill('SIGKILL');
      await ownerExit;

      // The browser outlives its owner (its own session); the files hold the job.
      expect(pidAlive(launched.pid)).toBe(true);
      expect(inspectCustody(appDir, 'local', 'crash')).toMatchObject({ state: 'held', runId: 'run-9', ownerAlive: false, attemptDir: launched.attemptDir });

      // A lost lifetime file refuses, and nothing is signalled.
      const lifetime = path.join(launched.attemptDir, LIFETIME_FILE);
      fs.renameSync(lifetime, `${lifetime}.aside`);
      expect(await recoverCustody(appDir, { tenant: 'local', jobKey: 'crash', runId: 'run-9' })).toMatchObject({ recovered: false, refusal: 'lifetime_missing' });
      expect(pidAlive(launched.pid)).toBe(true);
      fs.renameSync(`${lifetime}.aside`, lifetime);

      let confirmed = 0;
      const result = await recoverCustody(
        appDir,
        { tenant: 'local', jobKey: 'crash', runId: 'run-9' },
        {
          graceMs: 1_500,
          confirmOwner: async () => {
            confirmed += 1;
            return true;
          },
        },
      );
      expect(result).toEqual({ recovered: true, attemptDirs: [launched.attemptDir] });
      expect(confirmed).toBe(1);
      expect(pidAlive(launched.pid)).toBe(false);
      expect(JSON.parse(fs.readFileSync(path.join(launched.attemptDir, RELEASE_FILE), 'utf8')) as ReleaseRecord).toMatchObject({
        how: 'recovered',
        trackedCleanup: false,
        fullTreeVerified: false,
      });
      expect(inspectCustody(appDir, 'local', 'crash')).toEqual({ state: 'free' });
      expect(fs.existsSync(path.join(launched.attemptDir, 'profile'))).toBe(true); // retained
    } finally {
      if (owner.exitCode === null && owner.signalCode === null) owner.kill('SIGKILL');
      killSurvivorsUnder(root);
    }
  });
});

describe('the custody entry point', () => {
  it('loads without Playwright (the API reads custody; only the worker launches browsers)', async () => {
    const probe = spawn(
      process.execPath,
      [
        '-r',
        'ts-node/register/transpile-only',
        '-e',
        `require(${JSON.stringify(path.join(repoRoot, 'libs/apply-launcher/src/custody.ts'))});` +
          `process.stdout.write(JSON.stringify(Object.keys(require.cache).filter((k) => k.includes('playwright'))))`,
      ],
      { cwd: repoRoot, env: { ...process.env, TS_NODE_PROJECT: path.join(repoRoot, 'tsconfig.base.json') }, stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    probe.stdout.on('data', (c: Buffer) => (out += c.toString()));
    const code = await new Promise((resolve) => probe.once('exit', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(out)).toEqual([]);
  });
});

describe('exit verification', () => {
  it('unrelated process churn prevents the proof: cleanup unverified, nothing of ours running', async () => {
    // Forks short-lived processes over and over: no two inventories are ever the same. Three loops, so
    // the churn goes on while the machine is loaded (one loop descheduled for a few tens of ms under
    // a full `npm test` let two inventories match).
    const churners = [0, 1, 2].map(() => spawn('/bin/sh', ['-c', 'while :; do /bin/true; done'], { stdio: 'ignore' }));
    try {
      const result = await stopOwnedProcesses(
        { sessionId: 0, leaderStartTime: Number.MAX_SAFE_INTEGER, envMarker: `JOBCTRL_APPLY_CUSTODY=${randomBytes(16).toString('hex')}` },
        { verifyTimeoutMs: 1_000 },
      );
      expect(result).toMatchObject({ verified: false, survivors: [] });
      expect(result.verified === false && result.reason).toContain('churn');
    } finally {
      for (const churn of churners) churn.kill('SIGKILL');
    }
  });

  it('with no owned process and a moment without churn, the exit is proven', async () => {
    const result = await stopOwnedProcesses({ sessionId: 0, leaderStartTime: Number.MAX_SAFE_INTEGER, envMarker: `JOBCTRL_APPLY_CUSTODY=${randomBytes(16).toString('hex')}` });
    expect(result).toEqual({ verified: true, signalled: [] });
  });
});
