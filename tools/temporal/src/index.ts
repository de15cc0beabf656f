// Typed entry point (`@jobctrl/tools/temporal`) for TypeScript callers. The implementation is plain
// CommonJS JavaScript next to this folder (install.js, dev-server.js) because `npm start` / `npm test`
// run it before ts-node exists; the JSDoc there is the source of truth, these types mirror it.

export interface EnsureTemporalCliOptions {
  /** No progress output on stderr (errors still throw). */
  quiet?: boolean;
  /** Install root instead of `<repo>/.tools/temporal` (tests; CI caches). */
  toolsDir?: string;
}

export interface DevServerOptions {
  /** gRPC frontend port on 127.0.0.1. Default: a free port. */
  port?: number;
  /** SQLite file for persistent state. Default: in-memory. */
  dbFilename?: string;
  /** Namespace that must be ready before startDevServer resolves. Default 'default'. */
  namespace?: string;
  /** Server stdout+stderr (appended). Default: a new file under `<os tmp>/jobctrl-temporal/`. */
  logFile?: string;
  /** How long to wait for the server to answer gRPC. Default 60000. */
  readyTimeoutMs?: number;
  /** Temporal CLI binary. Default: ensureTemporalCli(). */
  cliPath?: string;
  /** Extra `temporal server start-dev` flags. */
  extraArgs?: string[];
}

export interface DevServer {
  /** '127.0.0.1:PORT' */
  address: string;
  port: number;
  pid: number;
  namespace: string;
  logFile: string;
  dbFilename: string | undefined;
  cliPath: string;
  /** CLI version reported by `--version`, e.g. '1.9.1'. */
  version: string;
  /** The exact argv passed to the CLI. */
  args: string[];
  /** SIGTERM, up to 10 s grace, then SIGKILL. Idempotent. */
  stop(): Promise<void>;
}

interface InstallModule {
  ensureTemporalCli(options?: EnsureTemporalCliOptions): Promise<string>;
  temporalCliPath(toolsDir?: string): string;
  probeVersion(binary: string): Promise<string | null>;
  versionOf(versionLine: string | null): string | null;
  TEMPORAL_CLI_VERSION: string;
  OVERRIDE_ENV: string;
  REPO_ROOT: string;
}

interface DevServerModule {
  startDevServer(options?: DevServerOptions): Promise<DevServer>;
  freePort(): Promise<number>;
}

// require, not import: the implementation is untyped CommonJS (no allowJs); the interfaces above type it.
const install: InstallModule = require('../install.js');
const devServer: DevServerModule = require('../dev-server.js');

export const { ensureTemporalCli, temporalCliPath, probeVersion, versionOf, TEMPORAL_CLI_VERSION, OVERRIDE_ENV } = install;
export const { startDevServer, freePort } = devServer;

/** Env var through which integration tests receive the dev server address (see jest-global-setup.js). */
export const TEST_TEMPORAL_ADDRESS_ENV = 'JOBCTRL_TEST_TEMPORAL_ADDRESS';

export * from './prep-executions';
