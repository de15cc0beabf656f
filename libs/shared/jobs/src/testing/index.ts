// Test support of the job store (`@jobctrl/shared/jobs/testing`): the specs of every preparation stage
// seed jobs the same way. Kept out of the production entry point.
export { openJobStore, seedEnrichedJob } from './job.fixture';
