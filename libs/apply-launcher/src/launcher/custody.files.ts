import * as fs from 'node:fs';
import * as path from 'node:path';

/**
 * The custody record of one apply attempt is a directory of small JSON files, each written once,
 * durably (fsync of the file and of its directory) before the step it vouches for:
 *
 *   {appDir}/apply/{tenant}/{jobKey}/{runId}-{attempt}-{random}/
 *     birth-intent.json    before Chromium is spawned: who will own what
 *     lifetime.json        right after the spawn (pid, session, start time), completed with the
 *                          verified endpoint once it is known
 *     release.json         only after exit was proven: custody is free again
 *     cleanup-failed.json  exit could not be proven: the job stays blocked for a person
 *     profile/ work/ config/   Chromium's profile, the attempt's files, Chromium's XDG config home
 *
 * Directories are never reused, reset or deleted: a later attempt gets a new one, and the old one
 * stays as evidence. Nothing here imports Playwright: the API reads custody through these files.
 */

export const BIRTH_INTENT_FILE = 'birth-intent.json';
export const LIFETIME_FILE = 'lifetime.json';
export const RELEASE_FILE = 'release.json';
export const CLEANUP_FAILED_FILE = 'cleanup-failed.json';
/** Environment variable carrying an attempt's nonce into Chromium and everything it starts. */
export const CUSTODY_ENV = 'JOBCTRL_APPLY_CUSTODY';

export interface AttemptIdentity {
  tenant: string;
  jobKey: string;
  runId: string;
  attempt: number;
}

export interface BirthIntent extends AttemptIdentity {
  /** Random per attempt; the lifetime file must repeat it (else it was replaced) and it is Chromium's env marker. */
  nonce: string;
  /** Caller's name for the owner (e.g. the worker identity), for people reading the files. */
  owner: string;
  ownerPid: number;
  ownerStartTime: number;
  bootId: string;
  hostname: string;
  createdAt: string;
}

export interface LifetimeRecord extends AttemptIdentity {
  nonce: string;
  pid: number;
  sessionId: number;
  /** /proc/<pid>/stat start time (clock ticks since boot). */
  startTime: number;
  bootId: string;
  /** Set once the DevTools endpoint was verified. */
  endpoint: { port: number; uuid: string; wsUrl: string } | null;
  writtenAt: string;
}

export interface ReleaseRecord {
  nonce: string;
  releasedAt: string;
  how: 'closed' | 'recovered';
  /**
   * Whether the launcher that spawned the processes tracked and ended them itself. Recovery after
   * an owner crash only proves the recorded session and marked processes are gone; it says so.
   */
  trackedCleanup: boolean;
  fullTreeVerified: boolean;
}

export interface CleanupFailedRecord {
  nonce: string;
  failedAt: string;
  reason: string;
  survivors: number[];
}

/** tenant, jobKey and runId become directory names: nothing that could leave the apply tree. */
const SAFE_PART = /^[A-Za-z0-9][A-Za-z0-9._:@-]{0,199}$/;

export class InvalidCustodyPartError extends Error {
  constructor(name: string, value: string) {
    super(`${name} ${JSON.stringify(value)} cannot name a custody directory (letters, digits and . _ : @ - only)`);
  }
}

export function assertSafePart(name: string, value: string): void {
  if (!SAFE_PART.test(value) || value.includes('..')) throw new InvalidCustodyPartError(name, value);
}

/** Where one job's attempts live. */
export function jobCustodyDir(appDir: string, tenant: string, jobKey: string): string {
  assertSafePart('tenant', tenant);
  assertSafePart('jobKey', jobKey);
  return path.join(appDir, 'apply', tenant, jobKey);
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function writeSynced(file: string, flags: 'wx' | 'w', value: unknown): void {
  const fd = fs.openSync(file, flags, 0o600); // private (#39), like everything in the app dir
  try {
    fs.writeSync(fd, JSON.stringify(value, null, 2) + '\n');
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Creates `file` (it must not exist), fsyncs it and its directory. */
export function writeDurableOnce(file: string, value: unknown): void {
  writeSynced(file, 'wx', value);
  fsyncDir(path.dirname(file));
}

/** Replaces `file` atomically (write, fsync, rename, fsync the directory). */
export function writeDurableReplace(file: string, value: unknown): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeSynced(tmp, 'w', value);
  fs.renameSync(tmp, file);
  fsyncDir(path.dirname(file));
}

/** The parsed file, `null` when it does not exist, `'unreadable'` when it exists but is not JSON. */
export function readRecord<T>(file: string): T | null | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    return 'unreadable';
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    return 'unreadable';
  }
}

/** One attempt directory as its files describe it. */
export interface AttemptFiles {
  dir: string;
  birth: BirthIntent | null | 'unreadable';
  lifetime: LifetimeRecord | null | 'unreadable';
  release: ReleaseRecord | null | 'unreadable';
  failed: CleanupFailedRecord | null | 'unreadable';
}

export function readAttempt(dir: string): AttemptFiles {
  return {
    dir,
    birth: readRecord<BirthIntent>(path.join(dir, BIRTH_INTENT_FILE)),
    lifetime: readRecord<LifetimeRecord>(path.join(dir, LIFETIME_FILE)),
    release: readRecord<ReleaseRecord>(path.join(dir, RELEASE_FILE)),
    failed: readRecord<CleanupFailedRecord>(path.join(dir, CLEANUP_FAILED_FILE)),
  };
}

/** Every attempt directory of a job, oldest birth first (directories without a birth intent included). */
export function listAttempts(appDir: string, tenant: string, jobKey: string): AttemptFiles[] {
  const root = jobCustodyDir(appDir, tenant, jobKey);
  let names: string[];
  try {
    names = fs.readdirSync(root);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const attempts = names
    .map((name) => path.join(root, name))
    .filter((dir) => fs.statSync(dir).isDirectory())
    .map(readAttempt);
  const born = (a: AttemptFiles) => (a.birth && a.birth !== 'unreadable' ? a.birth.createdAt : '');
  return attempts.sort((a, b) => born(a).localeCompare(born(b)) || a.dir.localeCompare(b.dir));
}
