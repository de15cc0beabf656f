import * as fs from 'node:fs';

/**
 * Linux /proc reading for browser custody. Everything here is synchronous on purpose: an inventory
 * is a snapshot, and awaiting between two /proc reads would only widen the window in which the
 * system changes under it.
 */

/** One process, identified by its generation: pid plus start time (clock ticks since boot). */
export interface ProcRow {
  pid: number;
  ppid: number;
  pgid: number;
  sid: number;
  /** Z (zombie) and X (dead) have exited; anything else is live. */
  state: string;
  startTime: number;
}

export interface ProcInventory {
  rows: ProcRow[];
  /**
   * Every pid listed by /proc could be read. A process that exited between the directory listing
   * and the read makes the inventory incomplete: it cannot count towards an exit proof.
   */
  complete: boolean;
  /** Monotonic milliseconds when the listing started. */
  at: number;
}

/** Which processes belong to one launcher: its session, and anything carrying its environment marker. */
export interface OwnedSelector {
  /** The session the launcher spawned Chromium into (its pid, since it was spawned with setsid). */
  sessionId: number;
  /** Start time of the session leader as recorded at spawn: a later process reusing the pid is not ours. */
  leaderStartTime: number;
  /**
   * `NAME=value` put into Chromium's environment. Descendants inherit it even when they leave the
   * session (Chromium's crashpad handler double-forks into a session of its own), so it finds
   * escaped descendants that a session scan misses.
   */
  envMarker: string;
  /** The recorded session ids belong to another boot: only the marker identifies our processes. */
  otherBoot?: boolean;
}

export const live = (row: ProcRow): boolean => row.state !== 'Z' && row.state !== 'X';

/** Parses /proc/<pid>/stat; null when the process is gone. */
export function readProcStat(pid: number): ProcRow | null {
  let stat: string;
  try {
    stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // "pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime
  // cutime cstime priority nice num_threads itrealvalue starttime ..." — comm may hold spaces and
  // parentheses, so fields are counted after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    state: fields[0],
    ppid: Number(fields[1]),
    pgid: Number(fields[2]),
    sid: Number(fields[3]),
    startTime: Number(fields[19]),
  };
}

/** A system-wide snapshot of every process generation. */
export function readInventory(): ProcInventory {
  const at = performance.now();
  let entries: string[];
  try {
    entries = fs.readdirSync('/proc');
  } catch {
    return { rows: [], complete: false, at };
  }
  const rows: ProcRow[] = [];
  let complete = true;
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const row = readProcStat(Number(entry));
    if (row) rows.push(row);
    else complete = false;
  }
  rows.sort((a, b) => a.pid - b.pid);
  return { rows, complete, at };
}

/** Same processes, same generations, same states. */
export function sameInventory(a: ProcInventory, b: ProcInventory): boolean {
  if (a.rows.length !== b.rows.length) return false;
  return a.rows.every((row, i) => {
    const other = b.rows[i];
    return row.pid === other.pid && row.startTime === other.startTime && live(row) === live(other);
  });
}

function hasEnvMarker(pid: number, marker: string): boolean {
  try {
    return fs.readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(marker);
  } catch {
    return false;
  }
}

/**
 * The live processes of an inventory that belong to the selector: members of the owned session
 * (never older than its leader) and any process started since the leader that carries the marker.
 */
export function ownedProcesses(inventory: ProcInventory, owner: OwnedSelector): ProcRow[] {
  const leader = inventory.rows.find((row) => row.pid === owner.sessionId);
  // A pid equal to the session id that started at another time leads a different, later session:
  // ours is gone, and that one's members are not ours (Linux frees a session id only once every
  // member has exited).
  const sessionIsOurs = !owner.otherBoot && owner.sessionId > 0 && (!leader || leader.startTime === owner.leaderStartTime);
  return inventory.rows.filter((row) => {
    if (!live(row) || row.pid === process.pid) return false;
    if (sessionIsOurs && row.sid === owner.sessionId && row.startTime >= owner.leaderStartTime) return true;
    if (!owner.otherBoot && row.startTime < owner.leaderStartTime) return false;
    return hasEnvMarker(row.pid, owner.envMarker);
  });
}

/** This machine's boot: pid and start-time identities only mean something within one. */
export function bootId(): string {
  try {
    return fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return 'unknown';
  }
}

/** Whether `pid` is still the process generation that started at `startTime`. */
export function sameProcessAlive(pid: number, startTime: number): boolean {
  const row = readProcStat(pid);
  return row !== null && live(row) && row.startTime === startTime;
}

/**
 * The inode of the IPv4 socket listening on 127.0.0.1:`port` (from /proc/net/tcp), or null. Only
 * the loopback address counts: a browser listening on 0.0.0.0 is not the endpoint we asked for.
 */
export function loopbackListenerInode(port: number): number | null {
  let table: string;
  try {
    table = fs.readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return null;
  }
  const local = `0100007F:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode
    if (cols[1] === local && cols[3] === '0A') return Number(cols[9]);
  }
  return null;
}

/** Whether process `pid` holds socket `inode` among its open file descriptors. */
export function processHoldsSocket(pid: number, inode: number): boolean {
  let fds: string[];
  try {
    fds = fs.readdirSync(`/proc/${pid}/fd`);
  } catch {
    return false;
  }
  const wanted = `socket:[${inode}]`;
  return fds.some((fd) => {
    try {
      return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === wanted;
    } catch {
      return false;
    }
  });
}
