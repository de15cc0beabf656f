module.exports = {
  displayName: 'tools-bench',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  // The bench runners' own logic (scoring, argument parsing); the benches themselves are commands.
  testMatch: ['<rootDir>/*.spec.ts'],
  coverageDirectory: '../../coverage/tools/bench',
};
