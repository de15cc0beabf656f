// The resolved config as `npm start` needs it. tools/stack/start.js is plain JS: it loads this file
// compiled (dist/apps/worker, built with the worker) and calls stackConfig() in its own process —
// no ts-node, no extra process. Run directly, it prints the JSON; a bad config.json exits 78 with
// the key, the value and the rule.
import { isConfigError, loadConfig } from '@jobctrl/shared/config';

export function stackConfig() {
  const c = loadConfig();
  return { configPath: c.configPath, appDir: c.appDir, databasePath: c.databasePath, temporal: c.temporal, api: c.api, heartbeat: c.heartbeat };
}

export { isConfigError };

if (require.main === module) {
  try {
    process.stdout.write(JSON.stringify(stackConfig()));
  } catch (err) {
    if (isConfigError(err)) {
      process.stderr.write(`invalid configuration:\n${err.message}\n`);
      process.exit(78);
    }
    throw err;
  }
}
