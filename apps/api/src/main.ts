import 'reflect-metadata';
import { isConfigError, loadConfig } from '@jobctrl/shared/config';
import { createApi } from './bootstrap';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await createApi(config);
  await app.listen(config.api.port, config.api.host);
  const url = await app.getUrl();
  console.log(`jobctrl api listening on ${url.replace('[::1]', 'localhost')} (config ${config.configPath}, database ${config.databasePath})`);
}

main().catch((err: unknown) => {
  if (isConfigError(err)) {
    console.error(`jobctrl api: invalid configuration, not starting:\n${err.message}`);
    process.exit(78); // EX_CONFIG
  }
  console.error('jobctrl api: failed to start:', err);
  process.exit(1);
});
