module.exports = {
  displayName: 'tools-stack',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/tools/stack',
  // `npm start` end to end: it starts its own embedded Temporal dev server, worker and API.
  testTimeout: 240_000,
};
