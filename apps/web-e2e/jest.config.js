// The web UI end to end: Debian's Chromium (playwright-core, never a downloaded browser) drives the UI
// that `npm start` serves, on a real stack (its own Temporal dev server, the compiled worker and API)
// crawling the board simulator. One stack and one browser for the whole file; each test's waits
// follow progress, so the timeout below only caps a machine that keeps moving.
module.exports = {
  displayName: 'web-e2e',
  preset: '../../jest.preset.js',
  rootDir: __dirname,
  testMatch: ['<rootDir>/src/**/*.e2e.spec.ts'],
  coverageDirectory: '../../coverage/apps/web-e2e',
  testTimeout: 600_000,
};
