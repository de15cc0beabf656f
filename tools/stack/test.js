#!/usr/bin/env node
// `npm test`: installs what is missing, starts ONE Temporal dev server for the whole run (every
// integration suite uses it, each with its own task queues), then type-checks, lints and runs every
// project's jest target through Nx. Ends with one "N passed, N failed" line.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { ensureNodeModules, root } = require('./ensure-install');

function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, stdio: 'inherit', env });
    child.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

async function main() {
  ensureNodeModules();
  const { ensureTemporalCli } = require('../temporal/install');
  const { startDevServer } = require('../temporal/dev-server');
  await ensureTemporalCli();
  const server = await startDevServer({});
  console.log(`[temporal] dev server for this test run at ${server.address} (pid ${server.pid})`);

  const summary = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jobctrl-test-')), 'summary.jsonl');
  const env = {
    ...process.env,
    JOBCTRL_TEST_TEMPORAL_ADDRESS: server.address,
    JOBCTRL_TEST_SUMMARY: summary,
    NX_DAEMON: 'false',
    NX_TUI: 'false',
    NX_NO_CLOUD: 'true',
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
  };
  let code = 0;
  try {
    console.log('[typecheck] tsc --noEmit -p tsconfig.json');
    const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });
    code = await run(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], env);
    // The web app is browser code with its own compiler settings (DOM, JSX), so its own project.
    if (code === 0) {
      console.log('[typecheck] tsc --noEmit -p apps/web/tsconfig.json');
      code = await run(process.execPath, [tsc, '--noEmit', '-p', 'apps/web/tsconfig.json'], env);
    }
    if (code === 0) {
      const nx = require.resolve('nx/bin/nx.js', { paths: [root] });
      code = await run(process.execPath, [nx, 'run-many', '-t', 'lint', 'test', '--skip-nx-cache', '--outputStyle=static'], env);
    }
  } finally {
    await server.stop();
  }

  const lines = fs.existsSync(summary) ? fs.readFileSync(summary, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : [];
  const total = lines.reduce((t, l) => ({ passed: t.passed + l.passed, failed: t.failed + l.failed, skipped: t.skipped + l.skipped }), { passed: 0, failed: 0, skipped: 0 });
  if (code !== 0 && total.failed === 0) total.failed = 1; // typecheck/lint failures count as a failure
  console.log(`${lines.length} jest projects run`);
  console.log(`tests: ${total.passed} passed, ${total.failed} failed${total.skipped ? `, ${total.skipped} skipped` : ''}`);
  process.exit(code);
}

main().catch((err) => {
  console.error(err && err.stack ? err.stack : err);
  console.log('tests: 0 passed, 1 failed');
  process.exit(1);
});
