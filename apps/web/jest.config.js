// Component and logic tests in jsdom; no server, no browser (those are the e2e suite's job).
const preset = require('../../jest.preset.js');

module.exports = {
  ...preset,
  displayName: 'web',
  rootDir: __dirname,
  testEnvironment: 'jsdom',
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/src/**/*.spec.tsx'],
  transform: { '^.+\\.tsx?$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.spec.json' }] },
  moduleFileExtensions: ['tsx', 'ts', 'js', 'json'],
  moduleNameMapper: { '\\.css$': '<rootDir>/src/testing/style-stub.js' },
  setupFiles: ['<rootDir>/src/testing/jsdom-setup.ts'],
  coverageDirectory: '../../coverage/apps/web',
};
