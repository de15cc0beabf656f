// `npm run db:migrate`: applies pending migrations to the database named by config.json (the API
// and the worker also do this at start; this is for doing it ahead of time or after an upgrade).
import { isConfigError, loadConfig } from '@jobctrl/shared/config';
import { pendingMigrations, runMigrations } from '@jobctrl/shared/db';

async function main(): Promise<void> {
  const config = loadConfig();
  const pending = await pendingMigrations({ databasePath: config.databasePath });
  const applied = await runMigrations({ databasePath: config.databasePath });
  console.log(
    applied.length > 0
      ? `applied ${applied.length} migration(s) to ${config.databasePath}: ${applied.join(', ')}`
      : `${config.databasePath} is up to date (${pending.length} pending before this run)`,
  );
}

main().catch((err: unknown) => {
  console.error(isConfigError(err) ? `invalid configuration:\n${err.message}` : err);
  process.exit(isConfigError(err) ? 78 : 1);
});
