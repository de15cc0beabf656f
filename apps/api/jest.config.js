module.exports = {
  displayName: 'api',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/apps/api',
  // Health reports Temporal reachability: the suite talks to a real dev server (one per test run).
  globalSetup: '<rootDir>/../../tools/temporal/jest-global-setup.js',
  globalTeardown: '<rootDir>/../../tools/temporal/jest-global-teardown.js',
  testTimeout: 60_000,
};
