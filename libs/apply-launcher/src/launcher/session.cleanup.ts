import { ownedProcesses, readInventory, sameInventory, type OwnedSelector, type ProcInventory } from './proc.inventory';

export interface CleanupTimings {
  /** Between SIGTERM and SIGKILL (Chromium flushes its profile on SIGTERM). Default 3 s. */
  graceMs?: number;
  /** After SIGKILL, how long owned processes may take to disappear. Default 5 s. */
  killWaitMs?: number;
  /** How long to look for the exit proof (two identical inventories) before giving up. Default 10 s. */
  verifyTimeoutMs?: number;
}

export type CleanupResult =
  | { verified: true; signalled: number[] }
  | {
      verified: false;
      /** Why exit could not be proven: owned processes survived, or the system never held still. */
      reason: string;
      /** Owned processes still seen in the last inventory (empty when only churn prevented the proof). */
      survivors: number[];
      signalled: number[];
    };

/** The spec's window: both inventories of an exit proof are taken within one second. */
const PROOF_WINDOW_MS = 1_000;
const POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function signalAll(pids: number[], sig: NodeJS.Signals, signalled: Set<number>): void {
  for (const pid of pids) {
    try {
      process.kill(pid, sig);
      signalled.add(pid);
    } catch {
      // already gone
    }
  }
}

/**
 * Ends every process one launcher owns and proves it: SIGTERM, a grace, then SIGKILL. Each pass
 * re-reads /proc, so a process that joined after the first pass (a child forked while shutting
 * down, a helper that double-forked out of the session but carries the marker) is signalled too.
 *
 * The proof (spec, "Process-session exit verification"): two consecutive complete, identical
 * system-wide inventories, taken within one second, with no live owned process in either. Anything
 * less — survivors, or unrelated processes starting and exiting between every pair of samples until
 * `verifyTimeoutMs` — is `verified: false`, and the caller keeps custody.
 */
export async function stopOwnedProcesses(owner: OwnedSelector, timings: CleanupTimings = {}): Promise<CleanupResult> {
  const graceMs = timings.graceMs ?? 3_000;
  const killWaitMs = timings.killWaitMs ?? 5_000;
  const verifyTimeoutMs = timings.verifyTimeoutMs ?? 10_000;
  const signalled = new Set<number>();
  const owned = () => ownedProcesses(readInventory(), owner).map((row) => row.pid);

  let left = owned();
  signalAll(left, 'SIGTERM', signalled);
  const termDeadline = performance.now() + graceMs;
  while (left.length > 0 && performance.now() < termDeadline) {
    await sleep(POLL_MS);
    left = owned();
    // Newcomers since the last pass get their SIGTERM (and their grace) too.
    signalAll(
      left.filter((pid) => !signalled.has(pid)),
      'SIGTERM',
      signalled,
    );
  }
  const killDeadline = performance.now() + killWaitMs;
  while (left.length > 0 && performance.now() < killDeadline) {
    signalAll(left, 'SIGKILL', signalled);
    await sleep(POLL_MS);
    left = owned();
  }
  if (left.length > 0) {
    return { verified: false, reason: `owned processes survived SIGKILL: ${left.join(', ')}`, survivors: left, signalled: [...signalled] };
  }

  const verifyDeadline = performance.now() + verifyTimeoutMs;
  let previous: ProcInventory | null = null;
  let lastSurvivors: number[] = [];
  while (performance.now() < verifyDeadline) {
    const current = readInventory();
    const members = current.complete ? ownedProcesses(current, owner).map((row) => row.pid) : [];
    if (members.length > 0) {
      // Something of ours appeared after all: end it and start the proof over.
      lastSurvivors = members;
      signalAll(members, 'SIGKILL', signalled);
      previous = null;
    } else if (!current.complete) {
      previous = null;
    } else {
      lastSurvivors = [];
      if (previous && current.at - previous.at <= PROOF_WINDOW_MS && sameInventory(previous, current)) {
        return { verified: true, signalled: [...signalled] };
      }
      previous = current;
    }
    await sleep(POLL_MS);
  }
  return {
    verified: false,
    reason:
      lastSurvivors.length > 0
        ? `owned processes kept appearing: ${lastSurvivors.join(', ')}`
        : `no two consecutive identical process inventories within ${verifyTimeoutMs} ms (unrelated process churn): cleanup unverified`,
    survivors: lastSurvivors,
    signalled: [...signalled],
  };
}
