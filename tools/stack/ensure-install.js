// Installs the npm dependencies when they are missing or older than package-lock.json, so that
// `npm start` and `npm test` work on a fresh clone. Uses only Node built-ins: it runs before
// node_modules exists.
const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');

const root = path.resolve(__dirname, '..', '..');

function needsInstall() {
  const marker = path.join(root, 'node_modules', '.package-lock.json');
  const lock = path.join(root, 'package-lock.json');
  if (!fs.existsSync(marker)) return true;
  return fs.statSync(lock).mtimeMs > fs.statSync(marker).mtimeMs;
}

function ensureNodeModules() {
  if (!needsInstall()) return;
  console.log('[setup] installing npm dependencies (npm ci; sqlite3 builds from source, a few minutes the first time)');
  const res = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (res.status !== 0) {
    throw new Error('npm ci failed; it needs Node 20+, npm, python3, make and a C++ compiler (apt-get install build-essential python3)');
  }
}

module.exports = { ensureNodeModules, root };
