// Test support of shared/db (`@jobctrl/shared/db/testing`): kept out of the production entry point so
// nothing an app runs exports test helpers.
export { tempDbDir } from './temp-db.fixture';
