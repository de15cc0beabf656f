// The app dir is private to its user (security issue #39). It holds the app database, the Temporal
// dev server's history, the parts' logs and the apply attempts (screenshots, browser profiles): the
// user's facts, postings and applications. Versions before #39 created it 0755 and its files 0644
// (the process umask), so any local account could read them.
//
// `npm start` calls secureAppDir before it starts anything: the app dir is created 0700, or chmod-ed
// 0700 when an older version made it 0755 — that alone shuts everyone else out of all it holds — and
// what jobctrl itself keeps directly in it is tightened too (files 0600, folders 0700), so nothing stays
// readable should the folder be opened up again or a file be hard-linked elsewhere. Only known names:
// app_dir may be a folder that holds the user's own things as well, which are not ours to change.
// New files get private modes where they are made: tools/temporal/dev-server.js (its history, its
// log), libs/shared/db (the database), start.js (the logs), the worker's umask (what the browser writes).
'use strict';

const fs = require('node:fs');
const path = require('node:path');
const { LOCK_FILE } = require('./stack-lock');

const PRIVATE_DIR = 0o700;
const PRIVATE_FILE = 0o600;
const LOG_DIR = 'logs';
const TEMPORAL_DB = 'temporal.sqlite';
/** The database file and the files SQLite keeps beside it. */
const SQLITE_SIDECARS = ['', '-wal', '-shm', '-journal'];
/** Folders jobctrl makes in the app dir (logs: start.js; apply: libs/apply-launcher). */
const OWN_DIRS = [LOG_DIR, 'apply'];

/**
 * Takes the group and other bits off `target` when it is a file or folder of this user that has any;
 * a symlink is never followed (it could point out of the app dir), and what is missing or owned by
 * someone else is left alone. Returns whether it changed the mode.
 * @param {string} target
 * @returns {boolean}
 */
function tighten(target) {
  let stat;
  try {
    stat = fs.lstatSync(target);
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === 'ENOENT') return false;
    throw err;
  }
  if (!(stat.isFile() || stat.isDirectory()) || (stat.mode & 0o077) === 0) return false;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) return false;
  fs.chmodSync(target, stat.mode & 0o700);
  return true;
}

/**
 * Creates `appDir` 0700 when missing and tightens an existing one (see the header).
 * @param {string} appDir
 * @param {{ databasePath?: string }} [options] the app database, tightened with its -wal/-shm
 *   wherever it lives (libs/shared/db does the same when the API or the worker opens it)
 * @returns {string[]} what was tightened, for the start's log
 */
function secureAppDir(appDir, options = {}) {
  fs.mkdirSync(appDir, { recursive: true, mode: PRIVATE_DIR });
  /** @type {string[]} */
  const changed = [];
  // The app dir itself: stat, not lstat — app_dir may be a symlink to the folder the user chose.
  const dirStat = fs.statSync(appDir);
  if ((dirStat.mode & 0o077) !== 0 && (typeof process.getuid !== 'function' || dirStat.uid === process.getuid())) {
    fs.chmodSync(appDir, dirStat.mode & 0o700);
    changed.push(appDir);
  }
  const files = [
    path.join(appDir, LOCK_FILE),
    ...SQLITE_SIDECARS.map((suffix) => path.join(appDir, TEMPORAL_DB + suffix)),
    ...(options.databasePath ? SQLITE_SIDECARS.map((suffix) => options.databasePath + suffix) : []),
  ];
  for (const dir of OWN_DIRS) {
    const full = path.join(appDir, dir);
    if (tighten(full)) changed.push(full);
  }
  // The logs: every file in logs/ is one of ours (worker.log, api.log, temporal.log, ...).
  const logDir = path.join(appDir, LOG_DIR);
  if (fs.existsSync(logDir) && fs.lstatSync(logDir).isDirectory()) {
    for (const name of fs.readdirSync(logDir)) files.push(path.join(logDir, name));
  }
  for (const file of files) if (tighten(file)) changed.push(file);
  return changed;
}

/**
 * The app dir's `logs/` folder, created 0700 (an existing one is secureAppDir's).
 * @param {string} appDir
 */
function ensureLogDir(appDir) {
  const logDir = path.join(appDir, LOG_DIR);
  fs.mkdirSync(logDir, { recursive: true, mode: PRIVATE_DIR });
  return logDir;
}

/**
 * Opens `file` for appending, created 0600 when missing (an existing one keeps its mode: see
 * secureAppDir). For the parts' logs, which the child processes write to.
 * @param {string} file
 * @returns {number} the file descriptor
 */
function openPrivateLog(file) {
  return fs.openSync(file, 'a', PRIVATE_FILE);
}

module.exports = { secureAppDir, ensureLogDir, openPrivateLog, PRIVATE_DIR, PRIVATE_FILE };
