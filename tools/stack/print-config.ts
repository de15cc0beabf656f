// Prints the resolved config as JSON for tools/stack/start.js (which is plain JS and cannot import
// the TypeScript config lib). A bad config.json exits 78 with the key, the value and the rule.
import { isConfigError, loadConfig } from '@jobctrl/shared/config';

try {
  const c = loadConfig();
  process.stdout.write(
    JSON.stringify({ configPath: c.configPath, appDir: c.appDir, databasePath: c.databasePath, temporal: c.temporal, api: c.api, heartbeat: c.heartbeat }),
  );
} catch (err) {
  if (isConfigError(err)) {
    process.stderr.write(`invalid configuration:\n${err.message}\n`);
    process.exit(78);
  }
  throw err;
}
