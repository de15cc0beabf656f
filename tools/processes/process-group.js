// Stopping a process together with everything it started. Plain CommonJS so `npm start`, the dev
// server module and the jest helpers (src/index.ts) share it without ts-node.
//
// Why groups AND a tree: a process spawned with `detached: true` leads its own process group, so
// `kill(-pid)` reaches its children too. But some children open groups of their own (the parts
// `npm start` runs, the Temporal dev server, the Chromium that Playwright launches), and those are
// orphaned the moment their parent dies. So before signalling we take a snapshot of the descendant
// tree (Linux /proc) and, after the grace period, SIGKILL whatever of it is still alive.
'use strict';

const fs = require('node:fs');

/**
 * One row per live process: pid, parent pid, process group, zombie or not. Empty without /proc.
 * @returns {Array<{ pid: number, ppid: number, pgid: number, zombie: boolean }>}
 */
function processTable() {
  /** @type {string[]} */
  let entries;
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return [];
  }
  const rows = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      // "pid (comm) state ppid pgrp ..." — comm may contain spaces and parentheses, so split after the last ')'.
      const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      rows.push({ pid: Number(entry), ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' || state === 'X' });
    } catch {
      // exited while we were reading
    }
  }
  return rows;
}

const hasProc = () => fs.existsSync('/proc/self/stat');

/**
 * `pid` and every process below it (children, grandchildren, in any process group).
 * @param {number} pid
 * @returns {Array<{ pid: number, pgid: number }>}
 */
function processTree(pid) {
  const table = processTable();
  const byParent = new Map();
  for (const row of table) {
    if (!byParent.has(row.ppid)) byParent.set(row.ppid, []);
    byParent.get(row.ppid).push(row);
  }
  const found = table.filter((row) => row.pid === pid);
  for (let i = 0; i < found.length; i++) found.push(...(byParent.get(found[i].pid) ?? []));
  return found.map(({ pid: p, pgid }) => ({ pid: p, pgid }));
}

/**
 * A process that exists and is not a zombie (an exited child nobody reaped yet is dead for us).
 * @param {number} pid
 */
function pidAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2)[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return !hasProc(); // no /proc (macOS): kill(0) said it exists
  }
}

/**
 * Whether any non-zombie member of process group `pgid` is left.
 * @param {number} pgid
 */
function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
  } catch {
    return false;
  }
  if (!hasProc()) return true;
  return processTable().some((row) => row.pgid === pgid && !row.zombie);
}

/** @param {number} target negative for a group @param {NodeJS.Signals} signal */
function signal(target, signal) {
  try {
    process.kill(target, signal);
    return true;
  } catch {
    return false; // already gone
  }
}

/**
 * Sends `sig` right now, synchronously, to the group led by `pid` and to every process of its tree
 * in whatever group. For `exit` hooks, where nothing asynchronous runs any more.
 * @param {number} pid
 * @param {NodeJS.Signals} sig
 * @param {Array<{ pid: number, pgid: number }>} [known] a snapshot taken earlier (the tree may have been orphaned since)
 */
function signalTree(pid, sig, known = []) {
  const tree = mergeTree(known, processTree(pid));
  const own = processTable().find((p) => p.pid === process.pid)?.pgid;
  signal(-pid, sig);
  for (const p of tree) {
    // Only groups led by a member of the tree, and never the caller's own group.
    if (p.pgid !== own && tree.some((q) => q.pid === p.pgid)) signal(-p.pgid, sig);
    if (p.pid !== process.pid) signal(p.pid, sig);
  }
}

const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Stops the process group led by `pid` (spawned with `detached: true`): SIGTERM to the group, up to
 * `graceMs` for the group and its whole tree to exit, then SIGKILL to whatever is left of both.
 * Resolves once nothing of it is alive (or after a last short wait past SIGKILL).
 * @param {number} pid
 * @param {{ graceMs?: number, onForce?: (left: number[]) => void, known?: Array<{ pid: number, pgid: number }> }} [options]
 *   known: an earlier snapshot of the tree (parts of it may have been orphaned since)
 * @returns {Promise<{ forced: boolean }>}
 */
async function stopGroup(pid, options = {}) {
  const graceMs = options.graceMs ?? 10_000;
  // The tree before anything dies: afterwards the grandchildren are re-parented and unreachable.
  let tree = mergeTree(options.known ?? [], processTree(pid));
  const leftOver = () => [...new Set([pid, ...tree.map((p) => p.pid)])].filter((p) => (p === pid ? groupAlive(pid) : pidAlive(p)));
  if (leftOver().length === 0) return { forced: false };
  signal(-pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    // Children started while the group was stopping count too.
    tree = mergeTree(tree, processTree(pid));
    if (leftOver().length === 0) return { forced: false };
    await sleep(100);
  }
  const left = leftOver();
  if (left.length === 0) return { forced: false };
  options.onForce?.(left);
  signalTree(pid, 'SIGKILL', tree);
  const killDeadline = Date.now() + 5_000;
  while (leftOver().length > 0 && Date.now() < killDeadline) await sleep(50);
  return { forced: true };
}

/** @param {Array<{ pid: number, pgid: number }>} a @param {Array<{ pid: number, pgid: number }>} b */
function mergeTree(a, b) {
  const seen = new Set(a.map((p) => p.pid));
  return [...a, ...b.filter((p) => !seen.has(p.pid))];
}

// ---------------------------------------------------------------------------------------------------
// Orphan protection. A detached group does not get the terminal's Ctrl-C, and nothing at all runs
// when its parent is SIGKILLed. So every guarded group is stopped (stop(), then the signal is
// re-raised) when this process is told to stop, and signalled SIGTERM when it exits.
// ---------------------------------------------------------------------------------------------------

/** @type {Map<number, () => Promise<unknown>>} */
const guarded = new Map();
const SIGNALS = /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP']);

// On exit only synchronous work is possible: by default SIGTERM, so a group can shut down cleanly after
// we are gone (the Temporal dev server keeps a --db-filename store consistent).
function onExit() {
  for (const pid of guarded.keys()) signalTree(pid, 'SIGTERM');
}

/** @param {NodeJS.Signals} sig */
function onSignal(sig) {
  // A listener disables Node's default "terminate on signal". If someone else handles this signal
  // (e.g. `npm start`'s own shutdown), only make sure the groups are stopping and leave the rest to
  // them. Otherwise stop the groups, then restore the default action by re-raising, so the exit status
  // still says "killed by SIGINT/SIGTERM" and nothing outlives us.
  const others = process.listeners(sig).filter((l) => l !== onSignal);
  const stopping = Promise.all([...guarded.values()].map((stop) => stop()));
  if (others.length > 0) return;
  const reraise = () => {
    unhook();
    process.kill(process.pid, sig);
  };
  stopping.then(reraise, reraise);
}

let hooked = false;
function hook() {
  if (hooked) return;
  hooked = true;
  process.on('exit', onExit);
  for (const s of SIGNALS) process.on(s, onSignal);
}
function unhook() {
  if (!hooked) return;
  hooked = false;
  process.removeListener('exit', onExit);
  for (const s of SIGNALS) process.removeListener(s, onSignal);
}

/**
 * Stops the group led by `pid` with `stop` if this process is told to stop (SIGINT/SIGTERM/SIGHUP),
 * and SIGTERMs it with its tree if this process exits first. Returns the function that ends the guard.
 * (Inside jest `process` is a sandbox copy whose listeners never fire: tests rely on the reaper.)
 * @param {number} pid
 * @param {() => Promise<unknown>} stop
 * @returns {() => void}
 */
function guardGroup(pid, stop) {
  guarded.set(pid, stop);
  hook();
  return () => {
    guarded.delete(pid);
    if (guarded.size === 0) unhook();
  };
}

// ---------------------------------------------------------------------------------------------------
// The reaper: a small detached process (reaper.js) that outlives us. We tell it which groups we run
// over a pipe; when the pipe closes — we exited, crashed, were SIGKILLed, or are a jest worker that
// jest killed — it stops those groups with their trees. The one thing an in-process hook cannot do.
// ---------------------------------------------------------------------------------------------------

/** @type {{ stdin: import('node:stream').Writable, pid: number } | null} */
let reaper = null;

function reaperProcess() {
  if (reaper) return reaper;
  const { spawn } = require('node:child_process');
  const child = spawn(process.execPath, [require('node:path').join(__dirname, 'reaper.js')], { detached: true, stdio: ['pipe', 'ignore', 'ignore'] });
  child.unref(); // never what keeps us alive…
  /** @type {any} */ (child.stdin).unref?.(); // …nor its pipe
  child.stdin?.on('error', () => undefined); // a reaper that died must not crash us
  reaper = { stdin: /** @type {import('node:stream').Writable} */ (child.stdin), pid: /** @type {number} */ (child.pid) };
  return reaper;
}

/**
 * Have the group led by `pid` (and its tree) stopped should this process end before it does:
 * SIGTERM, `graceMs`, SIGKILL.
 * @param {number} pid
 * @param {number} [graceMs]
 */
function reapWithMe(pid, graceMs = 10_000) {
  reaperProcess().stdin.write(`+${pid} ${graceMs}\n`);
}

/** The group led by `pid` was stopped by us: the reaper forgets it. @param {number} pid */
function forget(pid) {
  if (reaper) reaper.stdin.write(`-${pid}\n`);
}

/** Nothing left to watch (e.g. a test file's afterAll): the reaper exits. */
function releaseReaper() {
  reaper?.stdin.end();
  reaper = null;
}

module.exports = { processTree, pidAlive, groupAlive, stopGroup, signalTree, guardGroup, reapWithMe, forget, releaseReaper };
