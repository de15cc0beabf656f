module.exports = {
  displayName: 'apply-launcher',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.spec.ts'],
  coverageDirectory: '../../coverage/libs/apply-launcher',
};
