module.exports = {
  displayName: 'shared-llm',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/shared/llm',
};
