import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from './config.error';
import { loadConfig } from './config.loader';
import { API_RESTART_KEYS, WORKER_RESTART_KEYS } from './restart-keys.constants';
import { SETTINGS_KEYS } from './jobctrl-settings.schema';
import { FILE_ONLY_SETTINGS } from './settings-guards';
import { FileOnlySettingsError, patchSettings } from './settings.patch';

describe('patchSettings', () => {
  let dir: string;
  let path: string;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'jobctrl-patch-'));
    path = join(dir, 'config.json');
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  const fileDoc = (): unknown => JSON.parse(readFileSync(path, 'utf8'));

  async function configErrorOf(promise: Promise<unknown>): Promise<ConfigError> {
    try {
      await promise;
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      return err as ConfigError;
    }
    throw new Error('expected a ConfigError');
  }

  it('restart key lists name only real settings', () => {
    for (const key of [...WORKER_RESTART_KEYS, ...API_RESTART_KEYS]) expect(SETTINGS_KEYS).toContain(key);
    expect(WORKER_RESTART_KEYS).not.toContain('daily_spend_ceiling_usd');
    expect(WORKER_RESTART_KEYS).not.toContain('pipeline_internal_concurrency');
  });

  it('writes a changed slot count and says the worker must restart', async () => {
    const result = await patchSettings(path, { worker_activity_slots: 8 });
    expect(result.changedKeys).toEqual(['worker_activity_slots']);
    expect(result.restartRequired).toEqual(['worker_activity_slots']);
    expect(result.settings.worker_activity_slots).toBe(8);
    expect(fileDoc()).toEqual({ worker_activity_slots: 8 });
    expect(loadConfig({ path, env: {} }).workerActivitySlots).toBe(8);
  });

  it('needs no restart for the spend ceiling', async () => {
    const result = await patchSettings(path, { daily_spend_ceiling_usd: 12.5 });
    expect(result.changedKeys).toEqual(['daily_spend_ceiling_usd']);
    expect(result.restartRequired).toEqual([]);
  });

  it('lists restart keys in schema order for the union of worker and API keys', async () => {
    const result = await patchSettings(path, { api_port: 4000, daily_spend_ceiling_usd: 1, app_dir: 'x', llm: { provider: 'openai', model: 'gpt-4o-mini' } }, { allowFileOnly: true });
    expect(result.changedKeys).toEqual(['app_dir', 'daily_spend_ceiling_usd', 'llm', 'api_port']);
    expect(result.restartRequired).toEqual(['app_dir', 'llm', 'api_port']);
  });

  it('rejects an invalid value and leaves the file byte-for-byte unchanged', async () => {
    const original = '{\n    "worker_activity_slots": 6,   "api_port": 3001\n}';
    writeFileSync(path, original);
    const error = await configErrorOf(patchSettings(path, { worker_activity_slots: 0 }));
    expect(error.issues).toEqual([{ key: 'worker_activity_slots', value: 0, rule: 'must be an integer from 1 to 64' }]);
    expect(readFileSync(path, 'utf8')).toBe(original);
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('rejects unknown keys by name, even when set to null', async () => {
    writeFileSync(path, '{}');
    const error = await configErrorOf(patchSettings(path, { slots: 2, typo: null, llm: { foo: null } }));
    expect(error.issues.map((i) => i.key)).toEqual(['slots', 'typo', 'llm.foo']);
    expect(readFileSync(path, 'utf8')).toBe('{}');
  });

  it('rejects a patch that is not an object', async () => {
    const error = await configErrorOf(patchSettings(path, [1]));
    expect(error.issues).toEqual([{ key: '(patch)', value: [1], rule: 'must be a JSON object of settings' }]);
    expect(existsSync(path)).toBe(false);
  });

  it('validates the merged whole, including cross-field rules', async () => {
    writeFileSync(path, JSON.stringify({ worker_heartbeat_stale_seconds: 10 }));
    const error = await configErrorOf(patchSettings(path, { worker_heartbeat_interval_seconds: 10 }));
    expect(error.issues[0].key).toBe('worker_heartbeat_stale_seconds');
  });

  it('does not overwrite a file that is not valid JSON', async () => {
    writeFileSync(path, '{ nope');
    const error = await configErrorOf(patchSettings(path, { api_port: 1 }));
    expect(error.issues[0].key).toBe('(file)');
    expect(readFileSync(path, 'utf8')).toBe('{ nope');
  });

  it('can repair an invalid key in the file', async () => {
    writeFileSync(path, JSON.stringify({ worker_activity_slots: '4', api_port: 3001 }));
    const result = await patchSettings(path, { worker_activity_slots: 4 });
    expect(result.changedKeys).toEqual(['worker_activity_slots']);
    expect(fileDoc()).toEqual({ worker_activity_slots: 4, api_port: 3001 });
  });

  it('resets a key to its default with null, but stores null for nullable keys', async () => {
    writeFileSync(path, JSON.stringify({ worker_activity_slots: 9, temporal_address: 'temporal:7233', database_path: 'db.sqlite' }));
    const result = await patchSettings(path, { worker_activity_slots: null, temporal_address: null, database_path: null }, { allowFileOnly: true });
    expect(result.settings.worker_activity_slots).toBe(4);
    expect(result.settings.temporal_address).toBeNull();
    expect(result.changedKeys).toEqual(['database_path', 'worker_activity_slots', 'temporal_address']);
    expect(fileDoc()).toEqual({ temporal_address: null, database_path: null });
  });

  it('merges llm shallowly; null inside llm resets that field', async () => {
    writeFileSync(path, JSON.stringify({ llm: { provider: 'openai', model: 'a', base_url: 'http://localhost:8080' } }));
    const result = await patchSettings(path, { llm: { model: 'b', base_url: null } }, { allowFileOnly: true });
    expect(fileDoc()).toEqual({ llm: { provider: 'openai', model: 'b' } });
    expect(result.settings.llm.base_url).toBeUndefined();
    expect(result.restartRequired).toEqual(['llm']);
  });

  it('reports no change and does not create the file for a no-op patch', async () => {
    const result = await patchSettings(path, { worker_activity_slots: null });
    expect(result).toMatchObject({ changedKeys: [], restartRequired: [] });
    expect(existsSync(path)).toBe(false);
  });

  it('setting a default explicitly is not a change', async () => {
    const result = await patchSettings(path, { worker_activity_slots: 4 });
    expect(result.changedKeys).toEqual([]);
    expect(fileDoc()).toEqual({ worker_activity_slots: 4 });
  });

  it('serialises concurrent patches so neither update is lost', async () => {
    writeFileSync(path, '{}');
    const results = await Promise.all([
      patchSettings(path, { worker_activity_slots: 7 }),
      patchSettings(path, { daily_spend_ceiling_usd: 9 }),
      patchSettings(path, { api_port: 0 }),
    ]);
    expect(results.map((r) => r.changedKeys)).toEqual([['worker_activity_slots'], ['daily_spend_ceiling_usd'], ['api_port']]);
    expect(fileDoc()).toEqual({ worker_activity_slots: 7, daily_spend_ceiling_usd: 9, api_port: 0 });
    expect(readdirSync(dir)).toEqual(['config.json']);
  });

  it('keeps the chain going after a failed patch', async () => {
    const [bad, good] = await Promise.allSettled([
      patchSettings(path, { worker_activity_slots: 0 }),
      patchSettings(path, { worker_activity_slots: 2 }),
    ]);
    expect(bad.status).toBe('rejected');
    expect(good.status).toBe('fulfilled');
    expect(fileDoc()).toEqual({ worker_activity_slots: 2 });
  });

  describe('file-only settings (#39)', () => {
    async function refusal(promise: Promise<unknown>): Promise<FileOnlySettingsError> {
      const err = await promise.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(FileOnlySettingsError);
      return err as FileOnlySettingsError;
    }

    it('refuses, without the owner proven, every key that widens what is read, run or where a secret goes; the file is untouched', async () => {
      const original = JSON.stringify({ worker_activity_slots: 3 });
      writeFileSync(path, original);
      const attacks: Array<[Record<string, unknown>, string[]]> = [
        [{ file_source_dirs: ['/'] }, ['file_source_dirs']],
        [{ llm: { provider: 'openai', model: 'm', base_url: 'http://127.0.0.1:9/v1', api_key_env: 'TEMPORAL_API_KEY' } }, ['llm.base_url', 'llm.api_key_env']],
        [{ allowed_private_hosts: ['169.254.169.254'] }, ['allowed_private_hosts']],
        [{ temporal_address: '127.0.0.1:1' }, ['temporal_address']],
        [{ temporal_address: '10.0.0.1:7233', temporal_api_key_env: 'AWS_SECRET_ACCESS_KEY' }, ['temporal_address', 'temporal_api_key_env']],
        [{ api_host: '0.0.0.0', api_token_env: 'HOME' }, ['api_host', 'api_token_env']],
        [{ browser_executable_path: '/tmp/evil' }, ['browser_executable_path']],
        [{ database_path: '/tmp/other.sqlite' }, ['database_path']],
      ];
      for (const [patch, keys] of attacks) {
        const err = await refusal(patchSettings(path, { daily_spend_ceiling_usd: 7, ...patch }));
        expect(err.issues.map((i) => i.key).sort()).toEqual([...keys].sort());
        for (const issue of err.issues) expect(issue.rule).toMatch(/only when the API requires a token \(api_token_env\)/);
        expect(readFileSync(path, 'utf8')).toBe(original);
      }
    });

    it('lets ordinary keys and unchanged file-only keys through (a form posting its whole tab)', async () => {
      writeFileSync(path, JSON.stringify({ allowed_private_hosts: ['board.lan'], llm: { provider: 'openai', base_url: 'http://localhost:11434/v1' } }));
      const result = await patchSettings(path, { tailor_score_threshold: 70, allowed_private_hosts: ['board.lan'], llm: { provider: 'openai', base_url: 'http://localhost:11434/v1', model: 'm' }, file_source_dirs: null });
      expect(result.changedKeys).toEqual(['llm', 'tailor_score_threshold']);
    });

    it('lets the owner (an API that requires a token) change them', async () => {
      const result = await patchSettings(path, { file_source_dirs: ['/srv/exports'] }, { allowFileOnly: true });
      expect(result.changedKeys).toEqual(['file_source_dirs']);
      expect(fileDoc()).toEqual({ file_source_dirs: ['/srv/exports'] });
    });

    it('guards every *_env setting, including ones the list does not name', () => {
      const keys = FILE_ONLY_SETTINGS.map((s) => s.key);
      const envKeys = [...SETTINGS_KEYS.filter((k) => k.endsWith('_env')), 'llm.api_key_env'];
      for (const key of envKeys) expect(keys).toContain(key);
      for (const key of ['file_source_dirs', 'allowed_private_hosts', 'llm.base_url', 'api_host', 'temporal_address', 'temporal_tls', 'temporal_namespace']) expect(keys).toContain(key);
    });

    it('never lets two *_env settings name one variable, whoever asks, nor the file at start', async () => {
      writeFileSync(path, JSON.stringify({ temporal_address: 'temporal.example:7233', temporal_api_key_env: 'TEMPORAL_API_KEY' }));
      const error = await configErrorOf(patchSettings(path, { llm: { provider: 'openai', model: 'm', api_key_env: 'TEMPORAL_API_KEY' } }, { allowFileOnly: true }));
      expect(error.issues).toEqual([{ key: 'llm.api_key_env', value: 'TEMPORAL_API_KEY', rule: expect.stringContaining('temporal_api_key_env') }]);
      writeFileSync(path, JSON.stringify({ api_token_env: 'JOBCTRL_TOKEN', llm: { api_key_env: 'JOBCTRL_TOKEN' } }));
      expect(() => loadConfig({ path, env: { JOBCTRL_TOKEN: 'x' } })).toThrow(/llm\.api_key_env.*api_token_env/);
    });

    it('refuses at PATCH time a combination the next start would refuse (an API key for the embedded server)', async () => {
      writeFileSync(path, '{}');
      const error = await configErrorOf(patchSettings(path, { temporal_api_key_env: 'TEMPORAL_API_KEY' }, { allowFileOnly: true }));
      expect(error.issues).toEqual([{ key: 'temporal_api_key_env', value: 'TEMPORAL_API_KEY', rule: expect.stringContaining('set temporal_address') }]);
      expect(readFileSync(path, 'utf8')).toBe('{}');
      // The environment the apps start with counts: TEMPORAL_ADDRESS names an external server.
      const ok = await patchSettings(path, { temporal_api_key_env: 'TEMPORAL_API_KEY' }, { allowFileOnly: true, env: { TEMPORAL_ADDRESS: 'temporal.example:7233' } });
      expect(ok.changedKeys).toEqual(['temporal_api_key_env']);
    });
  });
});
