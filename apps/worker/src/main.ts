import 'reflect-metadata';
import { isConfigError, loadConfig, ResolvedConfig } from '@jobctrl/shared/config';
import { workerCapacity } from '@jobctrl/shared/temporal';

/**
 * Config is loaded synchronously first: a bad config.json stops the worker before anything starts,
 * and the libuv thread pool can still be sized — UV_THREADPOOL_SIZE is read when the pool is first
 * used, so it must be set before any async fs/sqlite work (see libs/shared/temporal/src/capacity.ts).
 */
function loadOrExit(): ResolvedConfig {
  try {
    return loadConfig();
  } catch (err) {
    if (isConfigError(err)) {
      console.error(`jobctrl worker: invalid configuration, not starting:\n${err.message}`);
      process.exit(78); // EX_CONFIG
    }
    throw err;
  }
}

// What the worker writes is private to its user (security issue #39): the database (libs/shared/db
// makes that 0600 itself) and the apply attempts in the app dir, much of which is written by code we
// pass no mode to: Playwright's screenshots and PDFs, Chromium's profile. A umask is the one setting
// that covers them all (Chromium inherits it): new files 0600, new folders 0700.
process.umask(0o077);

const config = loadOrExit();
const capacity = workerCapacity(config.workerActivitySlots);
if (!process.env['UV_THREADPOOL_SIZE']) process.env['UV_THREADPOOL_SIZE'] = String(capacity.uvThreadpoolSize);

// Loaded only now, after the thread pool size is fixed.
const { startWorker } = require('./bootstrap') as typeof import('./bootstrap');
startWorker(config).then(
  // Drained and closed in order; a lingering keep-alive socket must not keep a stopped worker alive.
  () => process.exit(0),
  (err: unknown) => {
    console.error('jobctrl worker: stopped with an error:', err);
    process.exit(1);
  },
);
