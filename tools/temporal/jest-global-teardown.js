// jest `globalTeardown` pairing jest-global-setup.js: stops the dev server that setup started (if it
// reused one from JOBCTRL_TEST_TEMPORAL_ADDRESS there is nothing to stop: its owner stops it).
'use strict';

const { ADDRESS_ENV, HANDLE_KEY } = require('./jest-global-setup');

/** @returns {Promise<void>} */
module.exports = async function temporalGlobalTeardown() {
  const g = /** @type {Record<string, unknown>} */ (globalThis);
  const server = /** @type {import('./dev-server').DevServer | undefined} */ (g[HANDLE_KEY]);
  if (!server) return;
  delete g[HANDLE_KEY];
  // Only unset what setup set, so a watch-mode re-run starts a fresh server instead of a dead address.
  if (process.env[ADDRESS_ENV] === server.address) delete process.env[ADDRESS_ENV];
  await server.stop();
};
