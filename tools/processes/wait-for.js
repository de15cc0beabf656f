// Waiting that follows progress instead of a fixed deadline: a loaded 2-core machine may take three
// times as long as a quiet one, but a stuck run stops moving. So the deadline is extended every time
// the probe reports a different progress signature, and the wait fails only after `idleTimeoutMs`
// without any movement (or at a generous absolute cap). Plain CommonJS: `npm start` uses it too.
'use strict';

/**
 * @template T
 * @typedef {{ done: T } | { progress: unknown }} WaitStep
 *   `done`: finished, with the value to return. `progress`: not yet; any JSON-comparable signature of
 *   how far it got (counts, states, a log size) — a change restarts the idle clock.
 */

/**
 * @typedef {object} WaitOptions
 * @property {string} [what]          for the error message ("the discovery run")
 * @property {number} idleTimeoutMs   fail after this long without a change of the progress signature
 * @property {number} [maxMs]         absolute cap, however much it moves. Default 10 × idleTimeoutMs.
 * @property {number} [intervalMs]    between probes. Default 250.
 * @property {AbortSignal} [signal]   stops the wait (rejects) — e.g. once the test that waits is over
 */

/**
 * Polls `probe` until it reports `done`. A probe that throws counts as no progress (e.g. an API not
 * answering yet); its last error is part of the timeout message.
 * @template T
 * @param {() => WaitStep<T> | Promise<WaitStep<T>>} probe
 * @param {WaitOptions} options
 * @returns {Promise<T>}
 */
async function waitFor(probe, options) {
  const { idleTimeoutMs, what = 'the condition', intervalMs = 250, signal } = options;
  const maxMs = options.maxMs ?? 10 * idleTimeoutMs;
  const started = Date.now();
  let movedAt = started;
  /** @type {string | undefined} */
  let signature;
  /** @type {unknown} */
  let lastError;
  for (;;) {
    if (signal?.aborted) throw new Error(`stopped waiting for ${what}: ${signal.reason instanceof Error ? signal.reason.message : String(signal.reason)}`);
    try {
      const step = await probe();
      if ('done' in step) return step.done;
      const next = JSON.stringify(step.progress) ?? 'undefined';
      if (next !== signature) {
        if (signature !== undefined) movedAt = Date.now();
        signature = next;
      }
      lastError = undefined;
    } catch (err) {
      lastError = err;
    }
    const now = Date.now();
    const idle = now - movedAt;
    if (idle > idleTimeoutMs || now - started > maxMs) {
      const why = idle > idleTimeoutMs ? `no progress for ${Math.round(idle / 1000)} s` : `still not done at the ${Math.round(maxMs / 1000)} s cap`;
      const error = lastError instanceof Error ? lastError.message : lastError === undefined ? '' : String(lastError);
      throw new Error(
        `timed out waiting for ${what}: ${why} (${Math.round((now - started) / 1000)} s in all; last progress ${signature ?? 'none'}${error ? `; last error: ${error}` : ''})`,
      );
    }
    await new Promise((resolve) => {
      const timer = setTimeout(done, intervalMs);
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve(undefined);
      }
      signal?.addEventListener('abort', done);
    });
  }
}

module.exports = { waitFor };
