// What `npm start` does when one of its processes dies on its own (tools/stack/start.js): the rules,
// apart from the processes, so they can be tested without killing anything.
//
// - A crash is restarted, at most RESTART_LIMIT times in RESTART_WINDOW_MS per process; one more
//   death inside the window stops the whole stack with a message that says why. Five restarts in ten
//   minutes ride out a crash or a killed server; more than that is a loop no restart will end.
// - A process that exits with EX_CONFIG (78: the parts' "invalid configuration") is never restarted:
//   the same config would fail the same way, so the stack stops at once, naming the key (the part's
//   own message, shown from its log).
// - Restarts wait a little longer each time (RESTART_DELAYS_MS), so a part that dies at once does not
//   spin through its budget in a second.
'use strict';

const RESTART_LIMIT = 5;
const RESTART_WINDOW_MS = 10 * 60_000;
const EX_CONFIG = 78;
const RESTART_DELAYS_MS = [0, 1_000, 2_000, 4_000, 8_000];

/** How a process ended, as the messages say it. @param {{ code: number | null, signal: string | null }} exit */
function describeExit({ code, signal }) {
  return signal ? `signal ${signal}` : `exit code ${code}`;
}

/** Restarts of one process within the sliding window. */
class RestartBudget {
  /** @param {{ limit?: number, windowMs?: number, now?: () => number }} [options] */
  constructor(options = {}) {
    this.limit = options.limit ?? RESTART_LIMIT;
    this.windowMs = options.windowMs ?? RESTART_WINDOW_MS;
    this.now = options.now ?? Date.now;
    /** @type {number[]} */
    this.restarts = [];
  }

  /**
   * Takes one restart: its number within the window (1…limit), or null when the budget is spent.
   * @returns {number | null}
   */
  take() {
    const now = this.now();
    this.restarts = this.restarts.filter((t) => now - t < this.windowMs);
    if (this.restarts.length >= this.limit) return null;
    this.restarts.push(now);
    return this.restarts.length;
  }
}

/**
 * What to do about a process that exited while the stack was not stopping.
 * @param {string} what  e.g. 'worker', 'temporal dev server'
 * @param {{ code: number | null, signal: string | null }} exit
 * @param {RestartBudget} budget
 * @returns {{ action: 'restart', n: number, delayMs: number, message: string } | { action: 'stop', exitCode: number, message: string }}
 */
function decide(what, exit, budget) {
  const how = describeExit(exit);
  if (exit.code === EX_CONFIG) {
    return { action: 'stop', exitCode: EX_CONFIG, message: `[jobctrl] ${what} exited (${how}: invalid configuration); not restarting it — fix the key named below and start again; stopping everything` };
  }
  const n = budget.take();
  if (n === null) {
    const minutes = Math.round(budget.windowMs / 60_000);
    return {
      action: 'stop',
      exitCode: 1,
      message: `[jobctrl] ${what} exited (${how}) after ${budget.limit} restarts in the last ${minutes} min; giving up (at most ${budget.limit} restarts in ${minutes} min) and stopping everything`,
    };
  }
  return {
    action: 'restart',
    n,
    delayMs: RESTART_DELAYS_MS[Math.min(n - 1, RESTART_DELAYS_MS.length - 1)],
    message: `[jobctrl] ${what} exited (${how}); restarting (${n}/${budget.limit} in the last ${Math.round(budget.windowMs / 60_000)} min)`,
  };
}

module.exports = { RestartBudget, decide, describeExit, EX_CONFIG, RESTART_LIMIT, RESTART_WINDOW_MS };
