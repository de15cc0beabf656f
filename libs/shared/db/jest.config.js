module.exports = {
  displayName: 'shared-db',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/shared/db',
};
