module.exports = {
  displayName: 'shared-profile',
  preset: '../../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../../coverage/libs/shared/profile',
};
