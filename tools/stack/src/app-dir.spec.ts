// Security issue #39: the app dir `npm start` runs from is private to its user — a new one 0700 with
// 0600 files, and one an older version left 0755/0644 tightened at start. Real files in a temp dir,
// under the usual umask 022 (what made them 0755/0644 before).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const { secureAppDir, ensureLogDir, openPrivateLog } = require('../app-dir.js') as {
  secureAppDir(appDir: string, options?: { databasePath?: string }): string[];
  ensureLogDir(appDir: string): string;
  openPrivateLog(file: string): number;
};
const { acquireStackLock } = require('../stack-lock.js') as {
  acquireStackLock(appDir: string): { acquired: boolean; file: string; release?: () => void };
};

const mode = (target: string) => fs.lstatSync(target).mode & 0o777;

describe('the app dir is private (#39)', () => {
  let root: string;
  let appDir: string;
  let previousUmask: number;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-app-dir-'));
    appDir = path.join(root, 'config', '.jobctrl');
    previousUmask = process.umask(0o022);
  });
  afterEach(() => {
    process.umask(previousUmask);
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('a fresh app dir is made 0700, its lock file, logs folder and logs 0700/0600', () => {
    // The lock is taken first (before the build), so it may be the one that creates the app dir.
    const lock = acquireStackLock(appDir);
    expect(lock.acquired).toBe(true);
    try {
      expect(mode(appDir)).toBe(0o700);
      expect(mode(lock.file)).toBe(0o600);
      expect(secureAppDir(appDir)).toEqual([]); // nothing left to tighten
      const logDir = ensureLogDir(appDir);
      expect(mode(logDir)).toBe(0o700);
      const log = path.join(logDir, 'worker.log');
      fs.closeSync(openPrivateLog(log));
      expect(mode(log)).toBe(0o600);
    } finally {
      lock.release?.();
    }
    // secureAppDir alone creates it too (config pointing at a folder that does not exist yet).
    const other = path.join(root, 'elsewhere', 'app');
    secureAppDir(other);
    expect(mode(other)).toBe(0o700);
  });

  it('an app dir an older version left 0755 with 0644 files is tightened; the user\'s own files and symlinks are left alone', () => {
    fs.mkdirSync(path.join(appDir, 'logs'), { recursive: true });
    fs.mkdirSync(path.join(appDir, 'apply', 'local', 'job-1'), { recursive: true });
    const ours = {
      files: ['jobctrl.pid', 'jobctrl.sqlite', 'jobctrl.sqlite-wal', 'jobctrl.sqlite-shm', 'temporal.sqlite', 'temporal.sqlite-wal', 'logs/worker.log', 'logs/api.log', 'logs/temporal.log'],
      dirs: ['logs', 'apply'],
    };
    for (const file of ours.files) fs.writeFileSync(path.join(appDir, file), 'x');
    fs.writeFileSync(path.join(appDir, 'notes.txt'), 'the user keeps this here');
    const outside = path.join(root, 'outside.log');
    fs.writeFileSync(outside, 'not in the app dir');
    fs.symlinkSync(outside, path.join(appDir, 'logs', 'linked.log'));
    for (const dir of [appDir, ...ours.dirs.map((d) => path.join(appDir, d))]) fs.chmodSync(dir, 0o755);
    for (const file of [...ours.files, 'notes.txt']) fs.chmodSync(path.join(appDir, file), 0o644);
    fs.chmodSync(outside, 0o644);

    const changed = secureAppDir(appDir, { databasePath: path.join(appDir, 'jobctrl.sqlite') });

    expect(mode(appDir)).toBe(0o700);
    for (const dir of ours.dirs) expect([dir, mode(path.join(appDir, dir))]).toEqual([dir, 0o700]);
    for (const file of ours.files) expect([file, mode(path.join(appDir, file))]).toEqual([file, 0o600]);
    expect(changed.sort()).toEqual([appDir, ...[...ours.dirs, ...ours.files].map((p) => path.join(appDir, p))].sort());
    // Not ours: unknown names keep their mode (the folder is closed to others anyway), a symlink is not followed.
    expect(mode(path.join(appDir, 'notes.txt'))).toBe(0o644);
    expect(mode(outside)).toBe(0o644);
    // Idempotent: a second start has nothing to do.
    expect(secureAppDir(appDir, { databasePath: path.join(appDir, 'jobctrl.sqlite') })).toEqual([]);
  });
});
