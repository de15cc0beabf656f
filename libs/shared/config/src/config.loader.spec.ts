import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig, resolveConfigPath } from './config.loader';

describe('config loading', () => {
  let dir: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobctrl-config-'));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  function write(name: string, doc: unknown): string {
    const path = join(dir, name);
    writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc));
    return path;
  }

  describe('resolveConfigPath', () => {
    it('defaults to <cwd>/config.json', () => {
      expect(resolveConfigPath({}, '/srv/jobctrl')).toBe('/srv/jobctrl/config.json');
    });

    it('uses JOBCTRL_CONFIG, relative to cwd', () => {
      expect(resolveConfigPath({ JOBCTRL_CONFIG: 'conf/prod.json' }, '/srv/jobctrl')).toBe('/srv/jobctrl/conf/prod.json');
      expect(resolveConfigPath({ JOBCTRL_CONFIG: '/etc/jobctrl.json' }, '/srv/jobctrl')).toBe('/etc/jobctrl.json');
    });

    it('treats an empty JOBCTRL_CONFIG as unset', () => {
      expect(resolveConfigPath({ JOBCTRL_CONFIG: '' }, '/srv/jobctrl')).toBe('/srv/jobctrl/config.json');
    });
  });

  it('uses all defaults when the file is missing, without creating it', () => {
    const path = join(dir, 'config.json');
    const config = loadConfig({ path, env: {} });
    expect(existsSync(path)).toBe(false);
    expect(config).toEqual({
      configPath: path,
      configDir: dir,
      settings: expect.anything(),
      appDir: join(dir, '.jobctrl'),
      databasePath: join(dir, '.jobctrl', 'jobctrl.sqlite'),
      workerActivitySlots: 4,
      temporal: { address: null, namespace: 'default', taskQueue: 'jobctrl-default', devServerPort: 7233, tls: null },
      api: { host: '127.0.0.1', port: 3000 },
      allowedPrivateHosts: [],
      fileSourceDirs: [join(dir, '.jobctrl', 'imports')],
      fileSourceMaxBytes: 104_857_600,
      heartbeat: { intervalMs: 5000, staleMs: 30000 },
      dailySpendCeilingUsd: 5,
      llm: { provider: 'extractive', timeoutMs: 60_000, prices: {} },
      tailorScoreThreshold: 60,
      preparationRecoveryIdleMs: 900_000,
      browserExecutablePath: '/usr/bin/chromium',
      hostPolicy: { minSpacingMs: 2000, maxInFlightPerHost: 1, maxApiResponseBytes: 16_777_216 },
    });
  });

  it('finds the file through JOBCTRL_CONFIG and resolves relative paths against its folder', () => {
    mkdirSync(join(dir, 'conf'));
    write(
      'conf/jobctrl.json',
      {
        app_dir: 'state',
        database_path: '../data/db.sqlite',
        temporal_tls: true,
        temporal_tls_ca_path: 'certs/ca.pem',
        temporal_tls_cert_path: '/abs/client.pem',
        temporal_tls_server_name: 'temporal.example',
      },
    );
    const config = loadConfig({ env: { JOBCTRL_CONFIG: join(dir, 'conf/jobctrl.json') } });
    expect(config.configDir).toBe(join(dir, 'conf'));
    expect(config.appDir).toBe(join(dir, 'conf', 'state'));
    expect(config.databasePath).toBe(join(dir, 'data', 'db.sqlite'));
    expect(config.temporal.tls).toEqual({
      caPath: join(dir, 'conf', 'certs', 'ca.pem'),
      certPath: '/abs/client.pem',
      serverName: 'temporal.example',
    });
  });

  it('puts the default database under a relative app_dir', () => {
    const path = write('config.json', { app_dir: 'var/jobctrl' });
    expect(loadConfig({ path, env: {} }).databasePath).toBe(join(dir, 'var', 'jobctrl', 'jobctrl.sqlite'));
  });

  it('reads file sources from <app_dir>/imports by default and allows no private host', () => {
    const path = write('config.json', { app_dir: 'var/jobctrl' });
    const config = loadConfig({ path, env: {} });
    expect(config.fileSourceDirs).toEqual([join(dir, 'var', 'jobctrl', 'imports')]);
    expect(config.allowedPrivateHosts).toEqual([]);
    expect(config.api).toEqual({ host: '127.0.0.1', port: 3000 });
  });

  it('maps the rest of the settings into the resolved shape', () => {
    const path = write('config.json', {
      worker_activity_slots: 12,
      pipeline_internal_concurrency: 3,
      temporal_address: 'temporal:7233',
      temporal_task_queue: 'q',
      api_host: '0.0.0.0',
      api_port: 0,
      api_token_env: 'JOBCTRL_API_TOKEN',
      allowed_private_hosts: ['Board.LAN', '[::1]'],
      file_source_dirs: ['imports', '/srv/exports'],
      file_source_max_bytes: 5_000_000,
      worker_heartbeat_interval_seconds: 2,
      worker_heartbeat_stale_seconds: 9,
      daily_spend_ceiling_usd: 0,
      llm: { provider: 'anthropic', model: 'claude', api_key_env: 'ANTHROPIC_API_KEY' },
      temporal_api_key_env: 'TEMPORAL_KEY',
    });
    const config = loadConfig({ path, env: { TEMPORAL_KEY: 'secret', JOBCTRL_API_TOKEN: 'api-secret' } });
    expect(config.workerActivitySlots).toBe(12);
    // Read live (LiveSettingsReader), never from the start-time config: only the validated setting is kept.
    expect(config.settings.pipeline_internal_concurrency).toBe(3);
    expect(config.temporal).toMatchObject({ address: 'temporal:7233', taskQueue: 'q', apiKey: 'secret', tls: null });
    expect(config.api).toEqual({ host: '0.0.0.0', port: 0, tokenEnv: 'JOBCTRL_API_TOKEN', token: 'api-secret' });
    expect(config.allowedPrivateHosts).toEqual(['board.lan', '::1']);
    expect(config.fileSourceDirs).toEqual([join(dir, 'imports'), '/srv/exports']);
    expect(config.fileSourceMaxBytes).toBe(5_000_000);
    expect(config.heartbeat).toEqual({ intervalMs: 2000, staleMs: 9000 });
    expect(config.dailySpendCeilingUsd).toBe(0);
    expect(config.llm).toEqual({ provider: 'anthropic', model: 'claude', apiKeyEnv: 'ANTHROPIC_API_KEY', timeoutMs: 60_000, prices: {} });
  });

  it('refuses a Temporal API key for the embedded dev server, naming the key (the SDK would dial it over TLS forever)', () => {
    const path = write('config.json', { temporal_api_key_env: 'TEMPORAL_KEY' });
    expect(() => loadConfig({ path, env: { TEMPORAL_KEY: 'secret' } })).toThrow(
      /"temporal_api_key_env" = "TEMPORAL_KEY": is for an external Temporal server: set temporal_address \(or TEMPORAL_ADDRESS\)/,
    );
    expect(loadConfig({ path, env: { TEMPORAL_KEY: 'secret', TEMPORAL_ADDRESS: 'temporal.example:7233' } }).temporal.apiKey).toBe('secret');
  });

  it('leaves apiKey unset when the named variable is not in the environment', () => {
    const path = write('config.json', { temporal_address: 'temporal.example:7233', temporal_api_key_env: 'TEMPORAL_KEY' });
    expect(loadConfig({ path, env: {} }).temporal).not.toHaveProperty('apiKey');
  });

  it('applies TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE over the file, leaving settings as in the file', () => {
    const path = write('config.json', { temporal_address: 'file-host:7233', temporal_namespace: 'file-ns' });
    const config = loadConfig({ path, env: { TEMPORAL_ADDRESS: 'env-host:7234', TEMPORAL_NAMESPACE: 'env-ns' } });
    expect(config.temporal.address).toBe('env-host:7234');
    expect(config.temporal.namespace).toBe('env-ns');
    expect(config.settings.temporal_address).toBe('file-host:7233');
    expect(config.settings.temporal_namespace).toBe('file-ns');
  });

  it('rejects a malformed TEMPORAL_ADDRESS', () => {
    const path = join(dir, 'config.json');
    expect(() => loadConfig({ path, env: { TEMPORAL_ADDRESS: 'no-port' } })).toThrow(
      'environment: "TEMPORAL_ADDRESS" = "no-port": must be "host:port" (port 1 to 65535)',
    );
  });

  it('reports malformed JSON under (file), naming the path and the parse error', () => {
    const path = write('config.json', '{ "worker_activity_slots": 4, }');
    let error: unknown;
    try {
      loadConfig({ path, env: {} });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const [issue] = (error as ConfigError).issues;
    expect(issue.key).toBe('(file)');
    expect(issue.value).toBe(path);
    expect(issue.rule).toMatch(/^is not valid JSON: .+/);
    expect((error as ConfigError).message).toContain(path);
  });

  it('names the file in validation errors', () => {
    const path = write('config.json', { worker_activity_slots: '4' });
    expect(() => loadConfig({ path, env: {} })).toThrow(
      `${path}: "worker_activity_slots" = "4": must be an integer from 1 to 64`,
    );
  });

  it('accepts a UTF-8 BOM', () => {
    const path = write('config.json', '\uFEFF{"worker_activity_slots": 6}');
    expect(loadConfig({ path, env: {} }).workerActivitySlots).toBe(6);
  });
});
