import { OPTIONAL_SETTINGS_KEYS, SETTINGS_KEYS, TEMPORAL_CONNECTION_KEYS, TEMPORAL_TLS_OPTION_KEYS } from './jobctrl-settings.schema';
import { API_RESTART_KEYS, WORKER_RESTART_KEYS } from './restart-keys.constants';

describe('the Temporal connection settings, listed once', () => {
  it('every temporal_tls_* setting is a TLS option, optional, and needs a restart of both apps', () => {
    const tlsSettings = SETTINGS_KEYS.filter((k) => k.startsWith('temporal_tls_'));
    expect([...TEMPORAL_TLS_OPTION_KEYS].sort()).toEqual([...tlsSettings].sort());
    for (const key of ['temporal_tls', ...tlsSettings, 'temporal_address', 'temporal_namespace', 'temporal_api_key_env']) {
      expect(TEMPORAL_CONNECTION_KEYS).toContain(key);
      expect(WORKER_RESTART_KEYS).toContain(key);
      expect(API_RESTART_KEYS).toContain(key);
    }
    for (const key of tlsSettings) expect(OPTIONAL_SETTINGS_KEYS).toContain(key);
    // Each list names a key once.
    for (const list of [WORKER_RESTART_KEYS, API_RESTART_KEYS, OPTIONAL_SETTINGS_KEYS]) expect(new Set(list).size).toBe(list.length);
  });
});

describe('the file source limits (#39)', () => {
  it('are read when the worker starts, so a change needs a worker restart and nothing of the API', () => {
    for (const key of ['file_source_dirs', 'file_source_max_bytes']) {
      expect(WORKER_RESTART_KEYS).toContain(key);
      expect(API_RESTART_KEYS).not.toContain(key);
    }
  });
});

describe('the API response cap (#27)', () => {
  it('api_response_max_bytes is read when the worker starts (its host policy), and by nothing of the API', () => {
    expect(WORKER_RESTART_KEYS).toContain('api_response_max_bytes');
    expect(API_RESTART_KEYS).not.toContain('api_response_max_bytes');
  });
});
