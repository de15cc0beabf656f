// One `npm start` per app dir: `<app_dir>/jobctrl.pid` holds the pid of the start script that runs
// the stack. A second start finds it, names the pid and gives up at once, instead of starting a
// second worker and API on the same database (or, as with `nx serve`, waiting on nx's task lock).
// A lock whose pid is dead (or now belongs to another process) is stale and taken over.
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { pidAlive } = require('../processes/process-group');

const LOCK_FILE = 'jobctrl.pid';

/**
 * Start time of a process in clock ticks since boot (/proc/<pid>/stat field 22), so a pid reused by
 * another process is not mistaken for the holder. null without /proc.
 * @param {number} pid
 * @returns {string | null}
 */
function startTimeOf(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

/**
 * @typedef {{ pid: number, startTime: string | null, startedAt: string, [key: string]: unknown }} LockHolder
 */

/** @param {string} file @returns {LockHolder | null} null when unreadable (half-written or gone) */
function readHolder(file) {
  try {
    const holder = JSON.parse(fs.readFileSync(file, 'utf8'));
    return Number.isInteger(holder.pid) ? holder : null;
  } catch {
    return null;
  }
}

/** @param {LockHolder} holder */
function holderRunning(holder) {
  if (!pidAlive(holder.pid)) return false;
  const now = startTimeOf(holder.pid);
  return now === null || holder.startTime === null || now === holder.startTime;
}

/**
 * Takes the lock of `appDir` for this process, released on exit (also process.exit from a signal
 * handler or after a part died; a SIGKILL leaves a stale lock the next start takes over).
 * @param {string} appDir
 * @param {Record<string, unknown>} [details] shown to a second start (e.g. the API URL)
 * @returns {{ acquired: true, file: string, staleFrom: number | null, release: () => void } | { acquired: false, file: string, holder: LockHolder }}
 */
function acquireStackLock(appDir, details = {}) {
  fs.mkdirSync(appDir, { recursive: true, mode: 0o700 }); // private (#39; app-dir.js tightens an older one)
  const file = path.join(appDir, LOCK_FILE);
  const mine = { pid: process.pid, startTime: startTimeOf(process.pid), startedAt: new Date().toISOString(), ...details };
  /** @type {number | null} */
  let staleFrom = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(mine) + '\n', { flag: 'wx', mode: 0o600 }); // atomic: fails if it exists
    } catch (err) {
      if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
      const holder = readHolder(file);
      if (holder && holderRunning(holder)) return { acquired: false, file, holder };
      if (!holder && attempt === 0) {
        // Possibly being written by a start that won the race a moment ago: look once more.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 100);
        continue;
      }
      if (holder) staleFrom = holder.pid;
      fs.rmSync(file, { force: true });
      continue;
    }
    const release = () => {
      // Only our own lock: a stale-lock takeover by someone else must not be undone by us.
      if (readHolder(file)?.pid === process.pid) fs.rmSync(file, { force: true });
      process.removeListener('exit', release);
    };
    process.on('exit', release);
    return { acquired: true, file, staleFrom, release };
  }
  throw new Error(`could not take the lock ${file}: it keeps changing (another start racing this one?)`);
}

module.exports = { acquireStackLock, LOCK_FILE };
