module.exports = {
  displayName: 'tools-temporal',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/tools/temporal',
  // These tests start real Temporal dev servers (and install the CLI on a cold machine): ~1-2 s per
  // server on a warm machine, but the first run may download the CLI, so be generous.
  testTimeout: 120_000,
};
