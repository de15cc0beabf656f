export * from './job-identity.rules';
