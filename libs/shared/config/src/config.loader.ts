import { dirname, join, resolve } from 'node:path';
import { ConfigError, ConfigIssue } from './config.error';
import { readConfigFileSync } from './config-file.reader';
import { isHostPort, isNonEmptyString, JobctrlSettings } from './jobctrl-settings.schema';
import { ResolvedConfig } from './resolved-config.model';
import { validateSettings } from './settings.validation';

export const CONFIG_PATH_ENV = 'JOBCTRL_CONFIG';
export const DEFAULT_CONFIG_FILE = 'config.json';
export const DEFAULT_DATABASE_FILE = 'jobctrl.sqlite';

/** An empty variable counts as unset: `JOBCTRL_CONFIG= npm start` should mean "the default". */
function envValue(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

export function resolveConfigPath(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return resolve(cwd, envValue(env, CONFIG_PATH_ENV) ?? DEFAULT_CONFIG_FILE);
}

export interface LoadConfigOptions {
  /** Config file path; relative to process.cwd(). Default: resolveConfigPath(env). */
  path?: string;
  env?: NodeJS.ProcessEnv;
}

function temporalOverrides(env: NodeJS.ProcessEnv): { address?: string; namespace?: string } {
  const address = envValue(env, 'TEMPORAL_ADDRESS');
  const namespace = envValue(env, 'TEMPORAL_NAMESPACE');
  const issues: ConfigIssue[] = [];
  if (address !== undefined && !isHostPort(address)) {
    issues.push({ key: 'TEMPORAL_ADDRESS', value: address, rule: 'must be "host:port" (port 1 to 65535)' });
  }
  if (namespace !== undefined && !isNonEmptyString(namespace)) {
    issues.push({ key: 'TEMPORAL_NAMESPACE', value: namespace, rule: 'must be a non-empty string' });
  }
  if (issues.length > 0) throw new ConfigError(issues, 'environment');
  return { address, namespace };
}

/** Builds the runtime view of validated settings. Exported for callers that validate a document
 * themselves (tests, a future reload) and need the same path and env rules as loadConfig. */
export function resolveSettings(
  settings: JobctrlSettings,
  configPath: string,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const absoluteConfigPath = resolve(configPath);
  const configDir = dirname(absoluteConfigPath);
  const fromConfigDir = (p: string): string => resolve(configDir, p);
  const overrides = temporalOverrides(env);
  const appDir = fromConfigDir(settings.app_dir);

  let databasePath: string;
  if (settings.database_path === null) databasePath = join(appDir, DEFAULT_DATABASE_FILE);
  // SQLite's in-memory database is a name, not a path; resolving it would create a file.
  else if (settings.database_path === ':memory:') databasePath = ':memory:';
  else databasePath = fromConfigDir(settings.database_path);

  const apiKeyEnv = settings.temporal_api_key_env;
  if (apiKeyEnv !== undefined && (overrides.address ?? settings.temporal_address) === null) {
    // An API key makes the SDK connect over TLS, which the embedded dev server does not speak: the
    // worker would retry a connection that can never succeed. Refuse it here, naming the key.
    throw new ConfigError(
      [{ key: 'temporal_api_key_env', value: apiKeyEnv, rule: 'is for an external Temporal server: set temporal_address (or TEMPORAL_ADDRESS); the embedded dev server takes no API key' }],
      absoluteConfigPath,
    );
  }
  const apiKey = apiKeyEnv === undefined ? undefined : envValue(env, apiKeyEnv);

  const llm: ResolvedConfig['llm'] = { provider: settings.llm.provider, timeoutMs: settings.llm.timeout_seconds * 1000, prices: settings.llm.prices };
  if (settings.llm.model !== undefined) llm.model = settings.llm.model;
  if (settings.llm.base_url !== undefined) llm.baseUrl = settings.llm.base_url;
  if (settings.llm.api_key_env !== undefined) {
    llm.apiKeyEnv = settings.llm.api_key_env;
    const key = envValue(env, settings.llm.api_key_env);
    if (key !== undefined) llm.apiKey = key;
  }

  const temporal: ResolvedConfig['temporal'] = {
    address: overrides.address ?? settings.temporal_address,
    namespace: overrides.namespace ?? settings.temporal_namespace,
    taskQueue: settings.temporal_task_queue,
    devServerPort: settings.temporal_dev_server_port,
    tls: settings.temporal_tls ? resolveTls(settings, fromConfigDir) : null,
  };
  if (apiKey !== undefined) temporal.apiKey = apiKey;

  return {
    configPath: absoluteConfigPath,
    configDir,
    settings,
    appDir,
    databasePath,
    workerActivitySlots: settings.worker_activity_slots,
    temporal,
    api: apiSettings(settings, env),
    allowedPrivateHosts: settings.allowed_private_hosts.map((host) => host.toLowerCase().replace(/^\[(.*)\]$/, '$1')),
    fileSourceDirs: (settings.file_source_dirs ?? [join(appDir, 'imports')]).map(fromConfigDir),
    fileSourceMaxBytes: settings.file_source_max_bytes,
    heartbeat: {
      intervalMs: settings.worker_heartbeat_interval_seconds * 1000,
      staleMs: settings.worker_heartbeat_stale_seconds * 1000,
    },
    dailySpendCeilingUsd: settings.daily_spend_ceiling_usd,
    llm,
    tailorScoreThreshold: settings.tailor_score_threshold,
    preparationRecoveryIdleMs: settings.preparation_recovery_idle_minutes * 60_000,
    browserExecutablePath: settings.browser_executable_path,
    hostPolicy: { minSpacingMs: settings.host_min_spacing_ms, maxInFlightPerHost: settings.host_max_in_flight, maxApiResponseBytes: settings.api_response_max_bytes },
  };
}

function apiSettings(settings: JobctrlSettings, env: NodeJS.ProcessEnv): ResolvedConfig['api'] {
  const api: ResolvedConfig['api'] = { host: settings.api_host, port: settings.api_port };
  if (settings.api_token_env !== undefined) {
    api.tokenEnv = settings.api_token_env;
    const token = envValue(env, settings.api_token_env);
    if (token !== undefined) api.token = token;
  }
  return api;
}

/**
 * The runtime view of the schema's own defaults (no file, no environment): what a worker built
 * without a config (tests, benches) runs with, so no caller restates a default.
 */
export function defaultResolvedConfig(): ResolvedConfig {
  return resolveSettings(new JobctrlSettings(), 'config.json', {});
}

function resolveTls(settings: JobctrlSettings, fromConfigDir: (p: string) => string): NonNullable<ResolvedConfig['temporal']['tls']> {
  const tls: NonNullable<ResolvedConfig['temporal']['tls']> = {};
  if (settings.temporal_tls_ca_path !== undefined) tls.caPath = fromConfigDir(settings.temporal_tls_ca_path);
  if (settings.temporal_tls_cert_path !== undefined) tls.certPath = fromConfigDir(settings.temporal_tls_cert_path);
  if (settings.temporal_tls_key_path !== undefined) tls.keyPath = fromConfigDir(settings.temporal_tls_key_path);
  if (settings.temporal_tls_server_name !== undefined) tls.serverName = settings.temporal_tls_server_name;
  return tls;
}

/**
 * Reads, validates and resolves the config. Synchronous on purpose: the worker calls it before
 * libuv's thread pool is first used (its size is fixed at that moment), and async fs would start it.
 * A missing file means all defaults; the file is not created.
 */
export function loadConfig(opts: LoadConfigOptions = {}): ResolvedConfig {
  const env = opts.env ?? process.env;
  const configPath = opts.path !== undefined ? resolve(opts.path) : resolveConfigPath(env);
  const raw = readConfigFileSync(configPath);
  const settings = validateSettings(raw ?? {}, configPath);
  return resolveSettings(settings, configPath, env);
}
