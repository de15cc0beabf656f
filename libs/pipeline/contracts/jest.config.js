module.exports = {
  displayName: 'pipeline-contracts',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/pipeline/contracts',
};
