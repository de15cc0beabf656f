module.exports = {
  displayName: 'pipeline-workflows',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/pipeline/workflows',
};
