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
