module.exports = {
  displayName: 'worker',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/apps/worker',
  // Integration suites run against a real Temporal dev server: one per test run (reused when
  // `npm test` already started one), unique task queues per test.
  globalSetup: '<rootDir>/../../tools/temporal/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../tools/temporal/jest-global-teardown.js',
  testTimeout: 120_000,
};
