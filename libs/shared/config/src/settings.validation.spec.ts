import { ConfigError } from './config.error';
import { JobctrlSettings, LlmSettings, SETTINGS_KEYS } from './jobctrl-settings.schema';
import { defaultDocument, toDocument, validateSettings } from './settings.validation';

function issuesOf(raw: unknown): ConfigError['issues'] {
  try {
    validateSettings(raw);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).issues;
  }
  throw new Error('expected a ConfigError');
}

describe('validateSettings', () => {
  it('fills every default from an empty document', () => {
    const settings = validateSettings({});
    expect(settings).toBeInstanceOf(JobctrlSettings);
    expect(settings.llm).toBeInstanceOf(LlmSettings);
    expect(toDocument(settings)).toEqual({
      app_dir: '.jobctrl',
      database_path: null,
      worker_activity_slots: 4,
      pipeline_internal_concurrency: 2,
      temporal_address: null,
      temporal_namespace: 'default',
      temporal_task_queue: 'jobctrl-default',
      temporal_dev_server_port: 7233,
      temporal_tls: false,
      temporal_tls_ca_path: null,
      temporal_tls_cert_path: null,
      temporal_tls_key_path: null,
      temporal_tls_server_name: null,
      temporal_api_key_env: null,
      daily_spend_ceiling_usd: 5,
      llm: { provider: 'extractive', model: null, base_url: null, api_key_env: null, timeout_seconds: 60, prices: {} },
      tailor_score_threshold: 60,
      preparation_recovery_idle_minutes: 15,
      availability_recheck_hours: 24,
      availability_sweeps_enabled: true,
      apply_daily_cap: 10,
      api_host: '127.0.0.1',
      api_port: 3000,
      api_token_env: null,
      allowed_private_hosts: [],
      file_source_dirs: null,
      file_source_max_bytes: 104_857_600,
      worker_heartbeat_interval_seconds: 5,
      worker_heartbeat_stale_seconds: 30,
      browser_executable_path: '/usr/bin/chromium',
      host_min_spacing_ms: 2000,
      host_max_in_flight: 1,
      api_response_max_bytes: 16_777_216,
    });
  });

  it('keeps given values and defaults the rest, including inside llm', () => {
    const settings = validateSettings({
      worker_activity_slots: 8,
      temporal_address: 'temporal.internal:7233',
      llm: { provider: 'openai', model: 'gpt-4o-mini', base_url: 'http://localhost:11434/v1', api_key_env: 'OPENAI_API_KEY' },
      temporal_tls: true,
      api_port: 0,
    });
    expect(settings.worker_activity_slots).toBe(8);
    expect(settings.temporal_address).toBe('temporal.internal:7233');
    expect(settings.llm).toMatchObject({ provider: 'openai', model: 'gpt-4o-mini', base_url: 'http://localhost:11434/v1' });
    expect(settings.temporal_tls).toBe(true);
    expect(settings.api_port).toBe(0);
    expect(settings.pipeline_internal_concurrency).toBe(2);
  });

  it('accepts its own document back (null optional keys mean unset)', () => {
    const doc = defaultDocument();
    const settings = validateSettings(doc);
    expect(settings.temporal_tls_ca_path).toBeUndefined();
    expect(settings.llm.model).toBeUndefined();
    expect(toDocument(settings)).toEqual(doc);
  });

  it('toDocument returns plain objects only', () => {
    const doc = toDocument(validateSettings({}));
    expect(Object.getPrototypeOf(doc)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(doc['llm'])).toBe(Object.prototype);
    expect(Object.keys(doc)).toEqual([...SETTINGS_KEYS]);
  });

  it.each<[string, unknown, string]>([
    ['worker_activity_slots', 0, 'must be an integer from 1 to 64'],
    ['worker_activity_slots', 65, 'must be an integer from 1 to 64'],
    ['worker_activity_slots', 2.5, 'must be an integer from 1 to 64'],
    ['worker_activity_slots', '4', 'must be an integer from 1 to 64'],
    ['pipeline_internal_concurrency', 33, 'must be an integer from 1 to 32'],
    ['temporal_dev_server_port', 70000, 'must be an integer from 1 to 65535'],
    ['api_port', -1, 'must be an integer from 0 to 65535'],
    ['worker_heartbeat_interval_seconds', 61, 'must be an integer from 1 to 60'],
    ['worker_heartbeat_stale_seconds', 1, 'must be an integer from 2 to 3600'],
    ['temporal_tls', 'true', 'must be true or false'],
    ['daily_spend_ceiling_usd', -0.01, 'must be a number >= 0'],
    ['daily_spend_ceiling_usd', '5', 'must be a number >= 0'],
    ['temporal_address', 'localhost', 'must be "host:port" (port 1 to 65535) or null'],
    ['temporal_address', 'localhost:0', 'must be "host:port" (port 1 to 65535) or null'],
    ['temporal_namespace', '', 'must be a non-empty string'],
    ['temporal_task_queue', 7, 'must be a non-empty string'],
    ['app_dir', null, 'must be a non-empty string'],
    ['database_path', 3, 'must be a non-empty string or null'],
    ['temporal_api_key_env', 'MY-KEY', 'must be an environment variable name (letters, digits and _, not starting with a digit)'],
    ['llm', 'openai', 'must be an object'],
    ['llm', [], 'must be an object'],
    ['tailor_score_threshold', 101, 'must be an integer from 0 to 100'],
    ['preparation_recovery_idle_minutes', 0, 'must be an integer from 1 to 1440'],
    ['availability_recheck_hours', 0, 'must be an integer from 1 to 8760'],
    ['availability_recheck_hours', 1.5, 'must be an integer from 1 to 8760'],
    ['availability_sweeps_enabled', 'no', 'must be true or false'],
    ['apply_daily_cap', -1, 'must be an integer from 0 to 1000'],
    ['apply_daily_cap', 2.5, 'must be an integer from 0 to 1000'],
    ['api_token_env', 'api-token', 'must be an environment variable name (letters, digits and _, not starting with a digit)'],
    ['allowed_private_hosts', '127.0.0.1', 'must be an array of host names or IP literals (no scheme, port or path)'],
    ['allowed_private_hosts', ['http://10.0.0.5'], 'must be an array of host names or IP literals (no scheme, port or path)'],
    ['allowed_private_hosts', ['board.lan:8080'], 'must be an array of host names or IP literals (no scheme, port or path)'],
    ['file_source_dirs', [], 'must be an array of non-empty paths, or null'],
    ['file_source_dirs', ['imports', ''], 'must be an array of non-empty paths, or null'],
    ['file_source_max_bytes', 0, 'must be an integer from 1 to 524288000'],
    ['file_source_max_bytes', -1, 'must be an integer from 1 to 524288000'],
    ['file_source_max_bytes', 'x', 'must be an integer from 1 to 524288000'],
    ['file_source_max_bytes', 1.5, 'must be an integer from 1 to 524288000'],
    ['file_source_max_bytes', 524_288_001, 'must be an integer from 1 to 524288000'],
  ])('rejects %s = %j', (key, value, rule) => {
    const raw = { [key]: value };
    expect(issuesOf(raw)).toEqual([{ key, value, rule }]);
  });

  it.each<[string, unknown, string]>([
    ['provider', 'gemini', 'must be one of extractive, openai, anthropic'],
    ['base_url', 'ftp://models.local', 'must be an http:// or https:// URL'],
    ['base_url', 'localhost:11434', 'must be an http:// or https:// URL'],
    ['model', '', 'must be a non-empty string'],
    ['timeout_seconds', 0, 'must be an integer from 1 to 600'],
    ['prices', { 'gpt-4o': { input_usd_per_mtok: -1, output_usd_per_mtok: 10 } }, 'must map model names to {"input_usd_per_mtok": number >= 0, "output_usd_per_mtok": number >= 0}'],
    ['prices', { 'gpt-4o': { input_usd_per_mtok: 2.5 } }, 'must map model names to {"input_usd_per_mtok": number >= 0, "output_usd_per_mtok": number >= 0}'],
    ['prices', [], 'must map model names to {"input_usd_per_mtok": number >= 0, "output_usd_per_mtok": number >= 0}'],
  ])('rejects llm.%s = %j', (key, value, rule) => {
    expect(issuesOf({ llm: { [key]: value } })).toEqual([{ key: `llm.${key}`, value, rule }]);
  });

  it('refuses a non-loopback api_host without api_token_env, naming the token key', () => {
    expect(issuesOf({ api_host: '0.0.0.0' })).toEqual([
      {
        key: 'api_token_env',
        value: undefined,
        rule: 'is required when api_host is not a loopback address (127.0.0.1, ::1 or localhost): name the environment variable holding the API token',
      },
    ]);
    expect(validateSettings({ api_host: '0.0.0.0', api_token_env: 'JOBCTRL_API_TOKEN' }).api_token_env).toBe('JOBCTRL_API_TOKEN');
    for (const host of ['127.0.0.1', '127.0.0.2', '::1', 'localhost']) expect(validateSettings({ api_host: host }).api_host).toBe(host);
  });

  it('accepts host names and IP literals as allowed private hosts', () => {
    const hosts = ['127.0.0.1', 'board.lan', '[::1]', 'fd00::5', '10.1.2.3'];
    expect(validateSettings({ allowed_private_hosts: hosts }).allowed_private_hosts).toEqual(hosts);
  });

  it('accepts IPv4, IPv6 and hostname temporal addresses', () => {
    for (const address of ['127.0.0.1:7233', '[::1]:7233', 'my-ns.tmprl.cloud:7233']) {
      expect(validateSettings({ temporal_address: address }).temporal_address).toBe(address);
    }
  });

  it('formats the message as key, value and rule, one line per issue', () => {
    expect(() => validateSettings({ worker_activity_slots: 0 })).toThrow(
      'config.json: "worker_activity_slots" = 0: must be an integer from 1 to 64',
    );
    let error: ConfigError | undefined;
    try {
      validateSettings({ worker_activity_slots: '4', api_port: 1e6 });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error?.message.split('\n')).toEqual([
      'config.json: "worker_activity_slots" = "4": must be an integer from 1 to 64',
      'config.json: "api_port" = 1000000: must be an integer from 0 to 65535',
    ]);
  });

  it('reports every issue at once', () => {
    const issues = issuesOf({ worker_activity_slots: 0, temporal_tls: 1, nope: true });
    expect(issues.map((i) => i.key).sort()).toEqual(['nope', 'temporal_tls', 'worker_activity_slots']);
  });

  it('rejects an unknown top-level key', () => {
    expect(issuesOf({ worker_slots: 4 })).toEqual([{ key: 'worker_slots', value: 4, rule: 'is not a known setting' }]);
  });

  it('requires llm.model for a network provider', () => {
    expect(issuesOf({ llm: { provider: 'openai' } })).toEqual([{ key: 'llm.model', value: undefined, rule: 'is required when llm.provider is openai' }]);
    expect(validateSettings({ llm: { provider: 'anthropic', model: 'claude-sonnet' } }, 'config.json').llm.model).toBe('claude-sonnet');
  });

  it('rejects an unknown key inside llm as llm.<key>', () => {
    expect(issuesOf({ llm: { provider: 'openai', model: 'gpt-4o-mini', foo: 1 } })).toEqual([
      { key: 'llm.foo', value: 1, rule: 'is not a known setting' },
    ]);
  });

  it('treats __proto__ from JSON as an unknown key, not a prototype', () => {
    const raw = JSON.parse('{"__proto__": {"worker_activity_slots": 99}}');
    expect(issuesOf(raw)).toEqual([{ key: '__proto__', value: { worker_activity_slots: 99 }, rule: 'is not a known setting' }]);
  });

  it('requires the stale threshold to exceed the heartbeat interval', () => {
    expect(issuesOf({ worker_heartbeat_interval_seconds: 10, worker_heartbeat_stale_seconds: 10 })).toEqual([
      {
        key: 'worker_heartbeat_stale_seconds',
        value: 10,
        rule: 'must be greater than worker_heartbeat_interval_seconds (10)',
      },
    ]);
    expect(issuesOf({ worker_heartbeat_interval_seconds: 40 })).toEqual([
      { key: 'worker_heartbeat_stale_seconds', value: 30, rule: 'must be greater than worker_heartbeat_interval_seconds (40)' },
    ]);
    expect(validateSettings({ worker_heartbeat_interval_seconds: 10, worker_heartbeat_stale_seconds: 11 })).toBeDefined();
  });

  it('does not add a cross-field issue when the interval itself is invalid', () => {
    expect(issuesOf({ worker_heartbeat_interval_seconds: 0 })).toEqual([
      { key: 'worker_heartbeat_interval_seconds', value: 0, rule: 'must be an integer from 1 to 60' },
    ]);
  });

  it.each([null, [], 'x', 3])('rejects a document that is not an object: %j', (raw) => {
    expect(issuesOf(raw)).toEqual([{ key: '(document)', value: raw, rule: 'must be a JSON object' }]);
  });
});
