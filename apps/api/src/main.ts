import 'reflect-metadata';
import * as path from 'node:path';
import { isConfigError, loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApi(config);
  await app.listen(config.api.port, config.api.host);
  const url = await app.getUrl();
  // What runs: the compiled tree (tools/build, `npm start`) or sources through ts-node (nx serve).
  const tsNode = Object.keys(require.cache).some((f) => f.includes(`${path.sep}ts-node${path.sep}`));
  const runtime = `${process.env['JOBCTRL_BUILD_DIR'] ? `compiled ${process.env['JOBCTRL_BUILD_DIR']}` : 'sources'}, ts-node ${tsNode ? 'loaded' : 'not loaded'}`;
  // Names the variable, never its value.
  const auth = config.api.tokenEnv ? `token required (from $${config.api.tokenEnv}; browsers log in at /login)` : 'no token (loopback only)';
  console.log(`jobctrl api listening on ${url.replace('[::1]', 'localhost')} (config ${config.configPath}, database ${config.databasePath}; ${runtime}; ${auth})`);
}

main().catch((err: unknown) => {
  if (isConfigError(err)) {
    console.error(`jobctrl api: invalid configuration, not starting:\n${err.message}`);
    process.exit(78); // EX_CONFIG
  }
  console.error('jobctrl api: failed to start:', err);
  process.exit(1);
});
