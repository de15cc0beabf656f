#!/usr/bin/env node
// The production build of the apps: `node tools/build/build.js [--if-stale] api worker` (what
// `nx build api|worker` and `npm start` run). Each app becomes a compiled tree under dist/apps/<app>:
//
//   main.js            entry: registers the path aliases, then runs apps/<app>/src/main.js
//   alias-register.js  + aliases.json: `@jobctrl/*` → compiled files, resolved without ts-node
//   apps/…, libs/…     the emitted JavaScript (same layout as the sources)
//   workflow-bundle.js (worker) the Temporal workflow bundle, built once here instead of at each start
//   build-stamp.json   what it was built from (tools/build/build-stamp.js: the staleness check)
//
// The web UI (`web`) is the exception: Vite bundles apps/web into dist/apps/web (index.html and
// hashed assets, which the API serves at /), after tsc has type-checked it (Vite only strips types).
//
// tsc, not esbuild: NestJS injection and TypeORM entities need emitDecoratorMetadata, which only the
// TypeScript compiler emits from type information. It type-checks too, and a type error fails the
// build. Incremental (.tsbuildinfo in the tree), so a rebuild after an edit re-checks what changed.
const fs = require('node:fs');
const path = require('node:path');
const { STAMP, staleReason, takeStamp, writeStamp } = require('./build-stamp');
const { acquireBuildLock } = require('./build-lock');

const root = path.resolve(__dirname, '..', '..');

const APPS = {
  api: { entries: ['apps/api/src/main.ts'] },
  // print-config: `npm start` reads the resolved config through the compiled config lib.
  worker: { entries: ['apps/worker/src/main.ts', 'tools/stack/print-config.ts'], workflowBundle: true },
  web: { vite: 'apps/web' },
};
// Plain-JS modules the compiled code loads by path (tsc emits only what it compiles).
const RUNTIME_JS = ['libs/shared/temporal/src/cpu-thread.runner.js'];
// Inputs besides the program's own files: the compiler settings, the dependency versions, this build.
const SHARED_INPUTS = ['tsconfig.base.json', 'package-lock.json', ...RUNTIME_JS];
const SHARED_DIRS = ['tools/build'];
// The workflow bundle reads the workflows lib by path (the worker never imports it).
const BUNDLE_DIRS = ['libs/pipeline/workflows/src', 'libs/pipeline/contracts/src'];

function outDirOf(app) {
  return path.join(root, 'dist', 'apps', app);
}

/** The apps among `apps` whose compiled tree is missing or older than its sources, with the reason. */
function staleApps(apps) {
  return apps.map((app) => ({ app, reason: staleReason(root, outDirOf(app)) })).filter((s) => s.reason !== null);
}

/** `@jobctrl/x` → the emitted file of its tsconfig target, relative to the tree's root. */
function aliasMap(ts) {
  const base = ts.readConfigFile(path.join(root, 'tsconfig.base.json'), ts.sys.readFile).config;
  const aliases = {};
  for (const [alias, targets] of Object.entries(base.compilerOptions.paths ?? {})) {
    if (!alias.includes('*') && targets.length > 0) aliases[alias] = `./${targets[0].replace(/\.tsx?$/, '.js')}`;
  }
  return aliases;
}

function compile(ts, app, outDir) {
  const parsed = ts.getParsedCommandLineOfConfigFile(path.join(root, 'tsconfig.base.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  const options = {
    ...parsed.options,
    outDir,
    rootDir: root,
    types: ['node'],
    sourceMap: false,
    declaration: false,
    incremental: true,
    tsBuildInfoFile: path.join(outDir, '.tsbuildinfo'),
  };
  const rootNames = APPS[app].entries.map((e) => path.join(root, e));
  const program = ts.createIncrementalProgram({ rootNames, options, host: ts.createIncrementalCompilerHost(options) });
  const sources = program
    .getSourceFiles()
    .map((f) => path.relative(root, f.fileName))
    .filter((f) => !f.startsWith('node_modules') && !f.startsWith('..'));
  const stamp = takeStamp(root, { files: [...sources, ...SHARED_INPUTS], dirs: [...SHARED_DIRS, ...(APPS[app].workflowBundle ? BUNDLE_DIRS : [])] });
  const diagnostics = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics(), ...program.getSyntacticDiagnostics(), ...program.getSemanticDiagnostics()];
  const emitted = program.emit();
  const errors = [...diagnostics, ...emitted.diagnostics].filter((d) => d.category === ts.DiagnosticCategory.Error);
  if (errors.length > 0) {
    const text = ts.formatDiagnostics(errors, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' });
    throw new Error(`${app}: ${errors.length} TypeScript error(s)\n${text}`);
  }
  return { stamp, files: sources.length };
}

function writeEntry(ts, app, outDir) {
  for (const file of RUNTIME_JS) {
    fs.mkdirSync(path.dirname(path.join(outDir, file)), { recursive: true });
    fs.copyFileSync(path.join(root, file), path.join(outDir, file));
  }
  fs.copyFileSync(path.join(__dirname, 'alias-register.js'), path.join(outDir, 'alias-register.js'));
  fs.writeFileSync(path.join(outDir, 'aliases.json'), JSON.stringify(aliasMap(ts), null, 1));
  fs.writeFileSync(
    path.join(outDir, 'main.js'),
    `// Generated by tools/build/build.js: the compiled ${app}.\nrequire('./alias-register');\nrequire('./apps/${app}/src/main');\n`,
  );
}

/** Bundles the workflows once, with the same entry and alias hook the worker uses when it bundles at start. */
async function bundleWorkflows(outDir) {
  require(path.join(outDir, 'alias-register.js'));
  const { workflowsEntry } = require(path.join(outDir, 'apps/worker/src/create-worker.js'));
  const { bundleWorkflowCode } = require('@temporalio/worker');
  const entry = workflowsEntry();
  const { code } = await bundleWorkflowCode({ workflowsPath: entry.workflowsPath, webpackConfigHook: entry.webpackConfigHook, logger: quietLogger() });
  fs.writeFileSync(path.join(outDir, 'workflow-bundle.js'), code);
}

function quietLogger() {
  const none = () => undefined;
  return { log: none, trace: none, debug: none, info: none, warn: (m) => console.warn(`[build] ${m}`), error: (m) => console.error(`[build] ${m}`) };
}

/** Runs a Node CLI of the workspace to completion; its output goes to ours, a failure throws. */
function runTool(app, bin, args) {
  const { spawnSync } = require('node:child_process');
  // Through the package's own folder: Vite's `exports` do not list its bin script.
  const [pkg, ...rest] = bin.split('/');
  const script = path.join(path.dirname(require.resolve(`${pkg}/package.json`, { paths: [root] })), ...rest);
  const res = spawnSync(process.execPath, [script, ...args], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) throw new Error(`${app}: ${bin} ${args.join(' ')} exited ${res.status ?? res.signal}`);
}

/** The web UI: type-check, then the Vite bundle; its stamp covers the whole app folder and the lockfile. */
function buildWeb(app, outDir) {
  const dir = APPS[app].vite;
  const stamp = takeStamp(root, { files: [...SHARED_INPUTS], dirs: [...SHARED_DIRS, dir] });
  runTool(app, 'typescript/bin/tsc', ['--noEmit', '-p', `${dir}/tsconfig.json`]);
  runTool(app, 'vite/bin/vite.js', ['build', '--config', `${dir}/vite.config.mts`, '--logLevel', 'warn']);
  return { stamp, files: fs.readdirSync(path.join(outDir, 'assets')).length };
}

async function buildApp(app) {
  if (!APPS[app]) throw new Error(`unknown app ${app} (one of ${Object.keys(APPS).join(', ')})`);
  const started = Date.now();
  if (APPS[app].vite) {
    const outDir = outDirOf(app);
    fs.rmSync(path.join(outDir, STAMP), { force: true });
    const { stamp, files } = buildWeb(app, outDir);
    writeStamp(outDir, stamp);
    return { app, ms: Date.now() - started, files, outDir, what: 'assets bundled' };
  }
  const ts = require('typescript');
  const outDir = outDirOf(app);
  fs.mkdirSync(outDir, { recursive: true });
  // A build that fails half-way must not leave a stamp that calls the tree fresh.
  fs.rmSync(path.join(outDir, STAMP), { force: true });
  const { stamp, files } = compile(ts, app, outDir);
  writeEntry(ts, app, outDir);
  if (APPS[app].workflowBundle) await bundleWorkflows(outDir);
  writeStamp(outDir, stamp);
  return { app, ms: Date.now() - started, files, outDir, what: 'sources compiled' };
}

async function main(argv) {
  const ifStale = argv.includes('--if-stale');
  const apps = argv.filter((a) => !a.startsWith('--'));
  const lock = await acquireBuildLock(path.join(root, 'dist', '.build-lock'), { onWait: (pid) => console.log(`[build] waiting for the build of pid ${pid}`) });
  try {
    const named = apps.length ? apps : Object.keys(APPS);
    // After waiting for another build, only what it left stale (it usually built the same apps).
    const todo = ifStale || lock.waitedFor !== null ? staleApps(named).map((s) => s.app) : named;
    if (lock.waitedFor !== null) console.log(`[build] after pid ${lock.waitedFor}: ${todo.length ? `still stale: ${todo.join(', ')}` : 'nothing left to build'}`);
    for (const app of todo) {
      const r = await buildApp(app);
      console.log(`[build] ${app}: ${r.files} ${r.what} to ${path.relative(root, r.outDir)} in ${(r.ms / 1000).toFixed(1)} s`);
    }
  } finally {
    lock.release();
  }
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((err) => {
    console.error(`[build] failed: ${err && err.message ? err.message : err}`);
    process.exit(1);
  });
}

module.exports = { APPS, outDirOf, staleApps, buildApp, root };
