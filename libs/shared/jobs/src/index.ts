export * from './discovery-run.repository';
export * from './job.model';
export * from './job.repository';
export * from './lifecycle.projector';
export * from './lifecycle-event.repository';
export * from './run-projection.rules';
export * from './preparation.repository';
export * from './preparation-batch.repository';
export * from './remaining-work.repository';
export * from './employer-name.rules';
// Test support: exported so the specs of every preparation stage seed jobs the same way.
export { openJobStore, seedEnrichedJob } from './testing/job.fixture';
