module.exports = {
  displayName: 'shared-config',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/shared/config',
};
