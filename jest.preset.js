// Shared jest settings for every project. ts-jest runs in transpile-only mode (isolatedModules in
// tsconfig.spec.json): type errors are the typecheck target's job, and transpiling per file keeps a
// 2-core CI fast. Decorator metadata is still emitted, which Nest DI and class-validator need.
const nxPreset = require('@nx/jest/preset').default;

module.exports = {
  ...nxPreset,
  testEnvironment: 'node',
  testTimeout: 60_000,
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }],
  },
  moduleFileExtensions: ['ts', 'js', 'json'],
  setupFiles: ['reflect-metadata'],
  reporters: ['default', require.resolve('./tools/stack/jest-summary-reporter.js')],
};
